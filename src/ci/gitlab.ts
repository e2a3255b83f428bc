/**
 * GitLab: the merge request's notes through the REST API (v4). Context from
 * GitLab CI: CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, and a token
 * with `api` scope in RAMPART_GITLAB_TOKEN or GITLAB_TOKEN (CI_JOB_TOKEN
 * cannot write notes).
 */
import { UsageError } from '../errors.js';
import type { Forge } from './forge.js';
import { requestJson } from './http.js';
import type { ExistingComment } from './pr-comment.js';

const PER_PAGE = 100;
const MAX_PAGES = 50;

interface GitlabNote {
  id: number;
  body?: string | null;
  author?: { username?: string } | null;
  created_at?: string;
  system?: boolean;
}

export interface GitlabContext {
  readonly apiUrl: string;
  readonly project: string;
  readonly mr: number;
  readonly token: string;
}

export function gitlabMrFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const iid = Number(env.CI_MERGE_REQUEST_IID);
  return Number.isSafeInteger(iid) && iid > 0 ? iid : undefined;
}

export function gitlabContext(env: NodeJS.ProcessEnv, mr: number): GitlabContext {
  const token = env.RAMPART_GITLAB_TOKEN ?? env.GITLAB_TOKEN;
  if (!token) throw new UsageError('set RAMPART_GITLAB_TOKEN (or GITLAB_TOKEN) to a token with api scope: CI_JOB_TOKEN cannot write merge request notes');
  const apiUrl = env.CI_API_V4_URL;
  if (!apiUrl) throw new UsageError('CI_API_V4_URL is not set (GitLab CI sets it)');
  const project = env.CI_PROJECT_ID;
  if (!project) throw new UsageError('CI_PROJECT_ID is not set (GitLab CI sets it)');
  return { apiUrl: apiUrl.replace(/\/+$/, ''), project, mr, token };
}

export function gitlabForge(context: GitlabContext): Forge {
  const headers = { 'private-token': context.token };
  const notes = `${context.apiUrl}/projects/${encodeURIComponent(context.project)}/merge_requests/${context.mr}/notes`;
  return {
    name: 'gitlab',
    target: `project ${context.project}!${context.mr}`,
    async whoAmI() {
      const response = await requestJson<{ username?: string }>('GET', `${context.apiUrl}/user`, headers, undefined, { allow: [401, 403, 404] });
      return response.status === 200 && typeof response.body?.username === 'string' ? response.body.username : undefined;
    },
    async listComments() {
      const out: ExistingComment[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { body } = await requestJson<GitlabNote[]>('GET', `${notes}?per_page=${PER_PAGE}&page=${page}&sort=asc&order_by=created_at`, headers);
        const items = Array.isArray(body) ? body : [];
        for (const n of items) {
          if (n.system) continue;
          out.push({ id: n.id, body: n.body ?? '', ...(n.author?.username ? { author: n.author.username } : {}), ...(n.created_at ? { createdAt: n.created_at } : {}) });
        }
        if (items.length < PER_PAGE) break;
      }
      return out;
    },
    async createComment(body) {
      const response = await requestJson<{ id: number }>('POST', notes, headers, { body });
      return response.body.id;
    },
    async updateComment(id, body) {
      await requestJson('PUT', `${notes}/${id}`, headers, { body });
    },
  };
}
