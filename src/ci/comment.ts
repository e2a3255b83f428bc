/**
 * `rampart ci comment`: post the plan as the one plan comment of the current
 * pull request (GitHub) or merge request (GitLab), updated in place. The
 * comment comes from the saved plan (`--plan`, the file `apply --plan` will
 * apply), from a failed step's errors (`--failed STEP --errors FILE`), or
 * from markdown made elsewhere (`--file`).
 */
import { redactSecrets } from '../secrets.js';
import { readFile } from 'node:fs/promises';
import { FileError, UsageError } from '../errors.js';
import { renderMarkdown } from '../plan/render/markdown.js';
import { readSavedPlan } from '../reconcile/saved-plan.js';
import { ciContext, type ContextOverrides } from './context.js';
import { renderFailureComment } from './failure.js';
import { upsertPlanComment, type Forge, type UpsertResult } from './forge.js';
import { GITHUB_ACTIONS_BOT, githubContext, githubForge, prNumberFromEvent } from './github.js';
import { gitlabContext, gitlabForge, gitlabMrFromEnv } from './gitlab.js';
import { MAX_COMMENT_CHARS } from './pr-comment.js';

export type Provider = 'github' | 'gitlab';

export interface CommentOptions extends ContextOverrides {
  /** Markdown made elsewhere. */
  readonly file?: string;
  /** A saved plan (`plan --out`), rendered with the CI context in its header. */
  readonly plan?: string;
  /** The step that failed; the comment says so and shows `errors`. */
  readonly failed?: string;
  /** What the failed step printed. */
  readonly errors?: string;
  readonly provider?: Provider;
  /** PR / MR number; default from the CI environment. */
  readonly number?: number;
  readonly author?: string;
  readonly marker?: string;
  /** Longest comment (default: the forges' 65,536 characters). */
  readonly maxChars?: number;
}

export type CommentOutcome = ({ readonly posted: true; readonly target: string } & UpsertResult) | { readonly posted: false; readonly reason: string };

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The comment's markdown, from whichever source the options name (exactly one). */
export async function commentText(options: CommentOptions, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  // A comment lands in a pull request: what a failed step printed may quote a secret (a policy link to the token file).
  return redactSecrets(await unredactedText(options, env));
}

async function unredactedText(options: CommentOptions, env: NodeJS.ProcessEnv): Promise<string> {
  const sources = [options.file, options.plan, options.failed].filter((s) => s !== undefined);
  if (sources.length !== 1) throw new UsageError('give exactly one of --plan FILE, --failed STEP or --file FILE');
  const maxChars = options.maxChars ?? MAX_COMMENT_CHARS;
  if (options.file !== undefined) return readText(options.file, 'the comment file');
  const context = await ciContext(env, options);
  if (options.plan !== undefined) return renderMarkdown(await readSavedPlan(options.plan), { context, maxChars });
  // A missing errors file is a step that died before writing it: the comment must still replace the stale plan.
  const errors = options.errors !== undefined ? await readFile(options.errors, 'utf8').catch(() => '') : '';
  return renderFailureComment({ step: options.failed as string, errors, context, maxChars });
}

export async function postPlanComment(options: CommentOptions, env: NodeJS.ProcessEnv = process.env): Promise<CommentOutcome> {
  const provider = options.provider ?? (env.GITLAB_CI === 'true' ? 'gitlab' : 'github');
  const text = await commentText(options, env);
  let forge: Forge;
  let fallbackAuthor: string | undefined;
  if (provider === 'github') {
    const pr = options.number ?? (await prNumberFromEvent(env.GITHUB_EVENT_PATH));
    if (pr === undefined) return { posted: false, reason: 'not a pull request event (no PR number in GITHUB_EVENT_PATH; pass --number)' };
    forge = githubForge(githubContext(env, pr));
    fallbackAuthor = GITHUB_ACTIONS_BOT;
  } else {
    const mr = options.number ?? gitlabMrFromEnv(env);
    if (mr === undefined) return { posted: false, reason: 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set; pass --number)' };
    forge = gitlabForge(gitlabContext(env, mr));
  }
  const result = await upsertPlanComment(forge, text, {
    ...(options.author ? { author: options.author } : {}),
    ...(fallbackAuthor ? { fallbackAuthor } : {}),
    ...(options.marker ? { marker: options.marker } : {}),
  });
  return { posted: true, target: forge.target, ...result };
}

export function describeOutcome(outcome: CommentOutcome): string {
  if (!outcome.posted) return `no comment posted: ${outcome.reason}`;
  if (outcome.action === 'create') return `created the plan comment ${outcome.id} on ${outcome.target}`;
  if (outcome.action === 'update') return `updated the plan comment ${outcome.id} on ${outcome.target}`;
  return `the plan comment ${outcome.id} on ${outcome.target} is already up to date`;
}
