import { annotation, escapeData } from '../../github-commands.js';
import { groupByAction } from '../../model/by-action.js';
import type { ObjectAction } from '../counts.js';
import type { PlanDocument } from '../types.js';
import { changeBlocks } from './blocks.js';
import type { ChangeBlock } from './change-block.js';
import { undeclaredPhrase } from './layout.js';
import { renderMarkdown } from './markdown.js';

export { escapeData, escapeProperty } from '../../github-commands.js';

export interface GithubOptions {
  /** Most annotations to emit; GitHub shows only a few per step anyway (default 50). */
  readonly maxAnnotations?: number;
  /**
   * The path GitHub knows a policy file by (relative to the repository root),
   * when the run's working directory is a subdirectory (a monorepo).
   */
  readonly path?: (file: string) => string;
}

export interface GithubOutput {
  /** Workflow commands for standard output: one per change, on its declaring line when it has one. */
  readonly annotations: string;
  /** Markdown for `$GITHUB_STEP_SUMMARY`. */
  readonly summary: string;
}

const TITLES: Readonly<Record<ObjectAction, string>> = {
  create: 'Rampart: create', update: 'Rampart: update', replace: 'Rampart: replace', delete: 'Rampart: delete', adopt: 'Rampart: adopt',
};

function message(b: ChangeBlock): string {
  const changed = b.attributes.filter((a) => a.old !== undefined).map((a) => `${a.name}: ${a.old} → ${a.value}`);
  const values = b.values ? [`values: ${b.values.list.slice(0, 20).join(', ')}${b.values.list.length + b.values.hidden > 20 ? ', …' : ''}`] : [];
  const what = [...b.detail, ...values, ...changed].join('; ');
  return `${b.sign} ${b.title} (client ${b.client})${what ? `: ${what}` : ''}`;
}

/**
 * GitHub Actions: a notice on the declaring line of each create, update,
 * replacement and adoption, a warning per deletion (a deleted object has no line left:
 * the annotation sits on the run), warnings for the notes that are, and the
 * markdown summary.
 */
export function renderGithub(plan: PlanDocument, options: GithubOptions = {}): GithubOutput {
  const max = options.maxAnnotations ?? 50;
  const path = options.path ?? ((file: string) => file);
  const commands: string[] = [];
  const blocks = changeBlocks(plan);
  const deletions = groupByAction(blocks)('delete');
  const deleted = new Set(deletions);
  const undeclared = undeclaredPhrase(plan);
  if (undeclared) commands.push(annotation('warning', { title: 'Rampart: not declared here' }, undeclared));
  for (const b of deletions.filter((x) => x.count > 0)) {
    commands.push(annotation('warning', { title: TITLES.delete }, message(b)));
  }
  for (const b of blocks.filter((x) => !deleted.has(x))) {
    const sources = b.sources.length > 0 ? b.sources : [undefined];
    for (const s of sources.slice(0, 5)) {
      const where = s ? { file: path(s.file), line: s.line, ...(s.col !== undefined ? { col: s.col } : {}) } : {};
      commands.push(annotation('notice', { ...where, title: TITLES[b.action] }, message(b)));
    }
  }
  for (const n of plan.notes) {
    if (n.level === 'warning') {
      commands.push(annotation('warning', { file: path(n.file), line: n.line, title: 'Rampart' }, `${n.name}: ${n.message}`));
    }
  }
  const shown = commands.slice(0, max);
  if (commands.length > max) {
    shown.push(`::notice::${escapeData(`${commands.length - max} more annotations left out; see the step summary`)}`);
  }
  return {
    annotations: shown.length > 0 ? `${shown.join('\n')}\n` : '',
    summary: renderMarkdown(plan, { marker: false }),
  };
}
