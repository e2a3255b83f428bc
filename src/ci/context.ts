/**
 * Where a comment's plan comes from, read from the CI environment: the
 * commit under review, the run's URL, the API planned against, the time.
 * Flags override each value.
 */
import { readFile } from 'node:fs/promises';
import type { CommentContext } from '../plan/render/header.js';

export interface ContextOverrides {
  readonly commit?: string;
  readonly runUrl?: string;
  readonly apiUrl?: string;
}

/** A pull request's head commit: GITHUB_SHA is the test merge commit, not what the author pushed. */
async function githubHeadSha(eventPath: string | undefined): Promise<string | undefined> {
  if (!eventPath) return undefined;
  try {
    const event = JSON.parse(await readFile(eventPath, 'utf8')) as { pull_request?: { head?: { sha?: unknown } } };
    const sha = event.pull_request?.head?.sha;
    return typeof sha === 'string' && sha !== '' ? sha : undefined;
  } catch {
    return undefined;
  }
}

export async function ciContext(env: NodeJS.ProcessEnv, overrides: ContextOverrides = {}, now: Date = new Date()): Promise<CommentContext> {
  const gitlab = env.GITLAB_CI === 'true';
  const commit = overrides.commit
    ?? (gitlab ? env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA || env.CI_COMMIT_SHA : (await githubHeadSha(env.GITHUB_EVENT_PATH)) ?? env.GITHUB_SHA);
  const githubRun = env.GITHUB_RUN_ID && env.GITHUB_REPOSITORY
    ? `${(env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
    : undefined;
  const runUrl = overrides.runUrl ?? (gitlab ? env.CI_JOB_URL ?? env.CI_PIPELINE_URL : githubRun);
  const apiUrl = overrides.apiUrl ?? env.RAMPART_API_URL;
  return {
    ...(commit ? { commit } : {}),
    ...(runUrl ? { runUrl } : {}),
    ...(apiUrl ? { apiUrl } : {}),
    time: now.toISOString(),
  };
}
