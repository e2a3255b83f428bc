/**
 * Every rule of one client as the service lists them: the hint listing, in
 * full, and the credential-stuffing rules a normal token reads only from their
 * own endpoint (one call). The plan's read (classes/rules.ts), the reads after
 * a write (settle, other writers' copies) and a create's check all list a
 * client's rules through here.
 */
import type { ApiHint } from '../api/records.js';
import { HINT_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { lastById, normalized } from './classes/class.js';
import { fetchAllPages, type PageScheduler, type PagingOptions } from './paging.js';

export interface RuleListingOptions {
  readonly signal?: AbortSignal;
  /** Paging of the hint listing: its expected size, the shared schedule, its name in errors (paging.ts). */
  readonly paging?: PagingOptions;
  /** Bounds the credential-stuffing call together with the read's other calls. */
  readonly schedule?: PageScheduler;
  /** Told how many records the hint listing held (listing-sizes.ts). */
  readonly onListed?: (records: number) => void;
}

/**
 * Each listed rule becomes `read(hint)` as its page arrives, so no raw page is
 * kept; a record of another client is dropped (the listings filter by client,
 * but trust nothing). The listing is read in `id` order, which no update
 * moves; a rule read twice (a read started again) keeps its later version; one both listings hold (a token with
 * more rights sees credential-stuffing rules in the hint listing too) is kept
 * once, as the hint listing has it.
 */
export async function listClientRules<T>(
  api: ServiceApi,
  client: number,
  read: (hint: ApiHint) => T | undefined,
  options: RuleListingOptions = {},
): Promise<T[]> {
  const call = options.signal ? { signal: options.signal } : {};
  const own = (hint: ApiHint) => normalized(hint.id, hint.clientid === client ? read(hint) : undefined);
  const schedule: PageScheduler = options.schedule ?? ((run) => run());
  const [hints, credentials] = await Promise.all([
    fetchAllPages(async (offset, limit) => (await api.listHints(client, offset, limit, call)).map(own), HINT_PAGE_LIMIT, options.paging ?? call),
    schedule(() => api.listCredentialRules(client, call)).then((records) => records.map(own)),
  ]);
  options.onListed?.(hints.length);
  return withoutRepeats([...lastById(hints), ...credentials]).flatMap((record) => record.objects);
}

/** One record per id, the first listed kept. */
export function withoutRepeats<T extends { readonly id: number }>(records: readonly T[]): T[] {
  const seen = new Set<number>();
  return records.filter((record) => !seen.has(record.id) && seen.add(record.id));
}
