/**
 * Reads the live state of every client the policies name: the managed rule
 * types and the three IP lists, in full. One failed page, or a listing that
 * keeps shifting under the read (paging.ts), fails the whole read (the other
 * listings are aborted): Rampart never plans from a partial view.
 */
import { runBounded } from '../concurrency.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { IP_LISTS, type LiveIpEntry } from '../model/ip.js';
import type { LiveRule } from '../model/rule.js';
import { describeBody } from '../api/errors-from-response.js';
import { ApiAuthError } from '../errors.js';
import { type ClientSource, describeClientSource, type LiveState } from '../model/state.js';
import { liveRuleFromHint } from './normalize-hint.js';
import { liveEntriesFromIpRule } from './normalize-ip-rule.js';
import { fetchAllPages } from './paging.js';

export interface ReadLiveOptions {
  readonly signal?: AbortSignal;
  /** Listings read at the same time. */
  readonly concurrency?: number;
  /** Where the policies declare each client: a refusal names the file:line to fix. */
  readonly clientSources?: readonly ClientSource[];
}

export async function readLiveState(api: ServiceApi, clients: readonly number[], options: ReadLiveOptions = {}): Promise<LiveState> {
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = abort.signal;
  const rules: LiveRule[][] = [];
  const ipEntries: LiveIpEntry[][] = [];

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
      const hints = await fetchAllPages(
        (offset, limit) => api.listHints(client, offset, limit, { signal }),
        HINT_PAGE_LIMIT,
        { signal, what: `rule listing of client ${client}` },
      );
      // The filter is by client, but trust nothing: keep only what was asked for.
      rules.push(lastById(hints).filter((hint) => hint.clientid === client).flatMap((hint) => liveRuleFromHint(hint) ?? []));
    });
    for (const list of IP_LISTS) {
      forClient(client, async () => {
        const objects = await fetchAllPages(
          (offset, limit) => api.listIpRules(client, list, offset, limit, { signal }),
          IP_RULE_PAGE_LIMIT,
          { signal, what: `${list} IP list of client ${client}` },
        );
        ipEntries.push(lastById(objects).filter((object) => object.clientid === client && object.list === list).flatMap(liveEntriesFromIpRule));
      });
    }
  }

  try {
    await runBounded(listings, options.concurrency ?? 8, abort);
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  return {
    clients: [...clients].sort((a, b) => a - b),
    rules: rules.flat().sort((a, b) => a.id - b.id),
    ipEntries: ipEntries.flat().sort((a, b) => a.id - b.id || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)),
  };
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
