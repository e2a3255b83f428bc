/**
 * Every rule of one client as the service lists them: the hint listing, in
 * full, and the credential-stuffing rules a normal token reads only from
 * their own endpoint. A token with more rights sees those in both: each id
 * is kept once. For the reads after a write (settle, a create's check); the
 * plan's read (read.ts) runs the same two listings alongside the others.
 */
import type { ApiHint } from '../api/records.js';
import { HINT_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { fetchAllPages } from './paging.js';

export async function listClientRules(api: ServiceApi, client: number, signal?: AbortSignal): Promise<ApiHint[]> {
  const options = signal ? { signal } : {};
  const [hints, credentials] = await Promise.all([
    fetchAllPages((offset, limit) => api.listHints(client, offset, limit, options), HINT_PAGE_LIMIT),
    api.listCredentialRules(client, options),
  ]);
  return withoutRepeats([...hints, ...credentials]);
}

/** One record per id, the first listed kept. */
export function withoutRepeats<T extends { readonly id: number }>(records: readonly T[]): T[] {
  const seen = new Set<number>();
  return records.filter((record) => !seen.has(record.id) && seen.add(record.id));
}
