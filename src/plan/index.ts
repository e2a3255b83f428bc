/** The pure core of `plan`: diff, ordering, digests, safety and renderers. */
export { diff, type DiffOptions, type DiffResult } from './diff.js';
export { buildPlan, hasChanges, restrictPlan, type PlanOptions } from './plan.js';
export { targetPlan, type Targets } from './target.js';
export { encodeChanges, encodePlan, encodePlanBody, planChecksum, withoutImpact } from './codec.js';
export { checkSafety, DEFAULT_SAFETY, type SafetyLimits, type SafetyOptions, type SafetyVerdict } from './safety.js';
export { digestDesired, digestLive } from './digest.js';
export type { Note } from './notes.js';
export * from './types.js';
export type { Impact, ImpactSummary, Plan, Safety, Target } from './model.js';
export { renderText, type TextOptions } from './render/text.js';
export { renderMarkdown, MARKDOWN_MARKER, type MarkdownOptions } from './render/markdown.js';
export { renderGithub, type GithubOptions, type GithubOutput } from './render/github.js';
export { renderJson } from './render/json.js';
