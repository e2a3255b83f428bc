/**
 * Reads the live state of every client the policies name: the managed rule
 * types and the three IP lists, in full. One failed page, or a listing that
 * keeps shifting under the read (paging.ts), fails the whole read (the other
 * listings are aborted): Rampart never plans from a partial view.
 */
import { createLimiter, runBounded } from '../concurrency.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { IP_LISTS, type LiveIpEntry } from '../model/ip.js';
import type { LiveRule } from '../model/rule.js';
import { describeBody } from '../api/errors-from-response.js';
import { ApiAuthError } from '../errors.js';
import { type ClientSource, describeClientSource, type LiveState } from '../model/state.js';
import { liveRuleFromHint } from './normalize-hint.js';
import { liveEntriesFromIpRule } from './normalize-ip-rule.js';
import { listingKey, type ListingKey, type ListingSizes } from './listing-sizes.js';
import { Interner } from './interner.js';
import { fetchAllPages } from './paging.js';
import { withoutRepeats } from './rule-listing.js';

export interface ReadLiveOptions {
  readonly signal?: AbortSignal;
  /** Page calls in flight at once, over all listings. */
  readonly concurrency?: number;
  /** Objects each listing is expected to hold (listing-sizes.ts): those pages are requested at once. */
  readonly expected?: ListingSizes;
  /** Told the number of objects each listing held. */
  readonly onListed?: (key: ListingKey, objects: number) => void;
  /** Where the policies declare each client: a refusal names the file:line to fix. */
  readonly clientSources?: readonly ClientSource[];
}

export async function readLiveState(api: ServiceApi, clients: readonly number[], options: ReadLiveOptions = {}): Promise<LiveState> {
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = abort.signal;
  const rules: LiveRule[][] = [];
  /** Read from their own endpoint; a token with more rights also sees them in the hint listing. */
  const credentialRules: LiveRule[][] = [];
  const ipEntries: LiveIpEntry[][] = [];

  const schedule = createLimiter(options.concurrency ?? 8);
  const paging = (key: ListingKey, what: string) => {
    const expected = options.expected?.get(key);
    return { signal, what, schedule, ...(expected !== undefined ? { expected } : {}) };
  };
  const listed = (key: ListingKey, objects: readonly unknown[]) => options.onListed?.(key, objects.length);

  const intern = new Interner();

  // Each page is normalized as it arrives, so its parsed answer can go at once;
  // the filters are by client and list, but trust nothing: keep only what was asked for.
  const listings: (() => Promise<void>)[] = [];
  const forClient = (client: number, listing: () => Promise<void>) => listings.push(async () => {
    try {
      await listing();
    } catch (error) {
      throw error instanceof ApiAuthError ? refusedFor(client, error, options.clientSources) : error;
    }
  });
  for (const client of clients) {
    forClient(client, async () => {
      const key = listingKey(client, 'rules');
      const read = await fetchAllPages(
        async (offset, limit) => (await api.listHints(client, offset, limit, { signal }))
          .map((hint) => normalized(hint.id, hint.clientid === client ? liveRuleFromHint(hint, intern) : undefined)),
        HINT_PAGE_LIMIT,
        paging(key, `rule listing of client ${client}`),
      );
      listed(key, read);
      rules.push(lastById(read).flatMap((record) => record.objects));
    });
    forClient(client, async () => {
      const hints = await schedule(() => api.listCredentialRules(client, { signal }));
      credentialRules.push(hints.flatMap((hint) => (hint.clientid === client ? (liveRuleFromHint(hint, intern) ?? []) : [])));
    });
    for (const list of IP_LISTS) {
      forClient(client, async () => {
        const key = listingKey(client, list);
        const read = await fetchAllPages(
          async (offset, limit) => (await api.listIpRules(client, list, offset, limit, { signal }))
            .map((object) => normalized(object.id, object.clientid === client && object.list === list ? liveEntriesFromIpRule(object, intern) : [])),
          IP_RULE_PAGE_LIMIT,
          paging(key, `${list} IP list of client ${client}`),
        );
        listed(key, read);
        ipEntries.push(lastById(read).flatMap((record) => record.objects));
      });
    }
  }

  try {
    // Every listing starts at once; `schedule` bounds the page calls in flight.
    await runBounded(listings, listings.length, abort);
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  return {
    clients: [...clients].sort((a, b) => a - b),
    rules: withoutRepeats([...rules.flat(), ...credentialRules.flat()]).sort((a, b) => a.id - b.id),
    ipEntries: ipEntries.flat().sort((a, b) => a.id - b.id || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)),
  };
}

/** A listed record, normalized: its id (for paging) and what it holds in the model. */
interface Normalized<T> {
  readonly id: number;
  readonly objects: readonly T[];
}

function normalized<T>(id: number, objects: T | readonly T[] | undefined): Normalized<T> {
  return { id, objects: objects === undefined ? [] : Array.isArray(objects) ? objects : [objects as T] };
}

/**
 * 401/403 on a client's listing: the token is refused, or may not act on that
 * account (often a mistyped `client:`). Says which client and where it is declared.
 */
function refusedFor(client: number, error: ApiAuthError, sources: readonly ClientSource[] | undefined): ApiAuthError {
  const where = describeClientSource({ clientSources: sources }, client);
  const declared = where ? ` (declared at ${where})` : '';
  const what = error.tokenRejected
    ? `the API refused the token while reading client ${client}${declared}: check the token, and that --api-url is the cloud (US or EU) it belongs to`
    : `the API token may not act on client ${client}${declared}: check that id in the policy, and that the token belongs to that account`;
  const said = describeBody(error.body);
  const answered = `${error.route ?? 'the listing'} answered ${error.tokenRejected ? 401 : 403}${said ? `: ${said}` : ''}`;
  return new ApiAuthError(`${what} (${answered})`, {
    method: error.method, route: error.route, host: error.host, httpStatus: error.httpStatus,
    body: error.body, cause: error, tokenRejected: error.tokenRejected,
  });
}

/**
 * One record per id. Offset paging over a listing the server orders by
 * `updated_at` shows an object touched between two page calls on both pages;
 * read twice, it would look like its own duplicate and the plan would delete
 * the copy it keeps. The later page holds the newer version.
 */
function lastById<T extends { readonly id: number }>(records: readonly T[]): T[] {
  const byId = new Map<number, T>();
  for (const record of records) {
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return [...byId.values()];
}
