/** The real ServiceApi over a fake HTTP client serving fixed listings, for pure read tests. */
import type { ApiClient } from '../../src/api/client.js';
import { ServiceApi } from '../../src/api/service.js';

/** The applications every fake account has: the default one and those the tests' policies name. */
const APPLICATIONS = [-1, 1, 7, 8, 9].map((id) => ({ id, name: `app ${id}`, deleted: false }));

/**
 * `hints` and `ips[list]` are each listing's records, concatenated; pages are
 * cut by offset and limit. `credentials` is what the credential-stuffing
 * configuration answers (no rules when left out).
 */
export function fakeApi(hints: unknown[], ips: Partial<Record<string, unknown[]>> = {}, credentials: unknown = { default: [], custom: [] }): ServiceApi {
  const http = {
    call: async (method: string, path: string, body?: { offset: number; limit: number }) => {
      if (method === 'POST' && path === '/v1/objects/hint' && body) return hints.slice(body.offset, body.offset + body.limit);
      if (method === 'POST' && path === '/v1/objects/pool' && body) return APPLICATIONS.slice(body.offset, body.offset + body.limit);
      if (method === 'GET' && path.endsWith('/credential_stuffing/configs')) return credentials;
      const query = new URLSearchParams(path.split('?')[1] ?? '');
      const offset = Number(query.get('offset'));
      return { objects: (ips[query.get('filter[list]') ?? ''] ?? []).slice(offset, offset + Number(query.get('limit'))) };
    },
  };
  return new ServiceApi(http as unknown as ApiClient);
}
