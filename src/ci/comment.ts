/**
 * `rampart ci comment`: post the markdown plan as the one plan comment of the
 * current pull request (GitHub) or merge request (GitLab), updated in place.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { upsertPlanComment, type Forge, type UpsertResult } from './forge.js';
import { GITHUB_ACTIONS_BOT, githubContext, githubForge, prNumberFromEvent } from './github.js';
import { gitlabContext, gitlabForge, gitlabMrFromEnv } from './gitlab.js';

export type Provider = 'github' | 'gitlab';

export interface CommentOptions {
  readonly file: string;
  readonly provider?: Provider;
  /** PR / MR number; default from the CI environment. */
  readonly number?: number;
  readonly author?: string;
  readonly marker?: string;
}

export type CommentOutcome = ({ readonly posted: true; readonly target: string } & UpsertResult) | { readonly posted: false; readonly reason: string };

export async function postPlanComment(options: CommentOptions, env: NodeJS.ProcessEnv = process.env): Promise<CommentOutcome> {
  const provider = options.provider ?? (env.GITLAB_CI === 'true' ? 'gitlab' : 'github');
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
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
