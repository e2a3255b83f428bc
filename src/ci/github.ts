/**
 * GitHub: the pull request's issue comments through the REST API.
 * Context from the Actions environment: GITHUB_API_URL, GITHUB_REPOSITORY,
 * GITHUB_EVENT_PATH (the PR number) and the token in GITHUB_TOKEN.
 */
import { readFile } from 'node:fs/promises';
import { FileError, UsageError } from '../errors.js';
import type { Forge } from './forge.js';
import { requestJson } from './http.js';
import type { ExistingComment } from './pr-comment.js';

/** Who posts with the workflow's GITHUB_TOKEN. */
export const GITHUB_ACTIONS_BOT = 'github-actions[bot]';
const PER_PAGE = 100;
const MAX_PAGES = 50;

interface GithubComment {
  id: number;
  body?: string | null;
  user?: { login?: string } | null;
  created_at?: string;
}

export interface GithubContext {
  readonly apiUrl: string;
  readonly repository: string;
  readonly pr: number;
  readonly token: string;
}

/** The PR number from the event payload: pull_request, pull_request_target or issue_comment on a PR. */
export async function prNumberFromEvent(eventPath: string | undefined): Promise<number | undefined> {
  if (!eventPath) return undefined;
  let event: { pull_request?: { number?: unknown }; issue?: { number?: unknown; pull_request?: unknown }; number?: unknown };
  try {
    event = JSON.parse(await readFile(eventPath, 'utf8')) as typeof event;
  } catch (error) {
    throw new FileError(`cannot read the GitHub event at GITHUB_EVENT_PATH (${eventPath}): ${(error as Error).message}`);
  }
  const candidates = [event.pull_request?.number, event.issue?.pull_request ? event.issue.number : undefined, event.pull_request ? event.number : undefined];
  const found = candidates.find((n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0);
  return found as number | undefined;
}

export function githubContext(env: NodeJS.ProcessEnv, pr: number): GithubContext {
  const token = env.GITHUB_TOKEN;
  if (!token) throw new UsageError('GITHUB_TOKEN is not set: pass the workflow token in the step\'s env (permissions: pull-requests: write)');
  const repository = env.GITHUB_REPOSITORY;
  if (!repository || !/^[^/\s]+\/[^/\s]+$/.test(repository)) throw new UsageError('GITHUB_REPOSITORY must be "owner/repo" (GitHub Actions sets it)');
  return { apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''), repository, pr, token };
}

export function githubForge(context: GithubContext): Forge {
  const headers = {
    authorization: `Bearer ${context.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  };
  const repo = `${context.apiUrl}/repos/${context.repository}`;
  return {
    name: 'github',
    target: `${context.repository}#${context.pr}`,
    async whoAmI() {
      // The workflow's GITHUB_TOKEN may not read /user (403): then the caller's fallback applies.
      const response = await requestJson<{ login?: string }>('GET', `${context.apiUrl}/user`, headers, undefined, { allow: [401, 403, 404] });
      return response.status === 200 && typeof response.body?.login === 'string' ? response.body.login : undefined;
    },
    async listComments() {
      const out: ExistingComment[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { body } = await requestJson<GithubComment[]>('GET', `${repo}/issues/${context.pr}/comments?per_page=${PER_PAGE}&page=${page}`, headers);
        const items = Array.isArray(body) ? body : [];
        for (const c of items) {
          out.push({ id: c.id, body: c.body ?? '', ...(c.user?.login ? { author: c.user.login } : {}), ...(c.created_at ? { createdAt: c.created_at } : {}) });
        }
        if (items.length < PER_PAGE) break;
      }
      return out;
    },
    async createComment(body) {
      const response = await requestJson<{ id: number }>('POST', `${repo}/issues/${context.pr}/comments`, headers, { body });
      return response.body.id;
    },
    async updateComment(id, body) {
      await requestJson('PATCH', `${repo}/issues/comments/${id}`, headers, { body });
    },
  };
}
