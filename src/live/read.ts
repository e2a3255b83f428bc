/**
 * Reads the live state of every client the policies name: the managed rule
 * types and the three IP lists, in full. One failed page, or a listing that
 * keeps shifting under the read (paging.ts), fails the whole read (the other
 * listings are aborted): Rampart never plans from a partial view.
 */
import { createLimiter, runBounded } from '../concurrency.js';
import type { ServiceApi } from '../api/service.js';
import { describeBody } from '../api/errors-from-response.js';
import { ApiAuthError } from '../errors.js';
import { classObjects, registeredClasses, type ObjectClass, type ObjectsByClass } from '../model/object-class.js';
import { type ClientSource, describeClientSource, type LiveState } from '../model/state.js';
import type { ReadContext } from './classes/class.js';
import { liveClass } from './classes/index.js';
import type { ListingKey, ListingSizes } from './listing-key.js';
import { Interner } from '../model/interner.js';
import { HeapGrowth } from '../heap-growth.js';

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
  /** Asked after each page: the read's garbage is collected as it grows (heap-growth.ts). */
  readonly heap?: HeapGrowth;
}

export async function readLiveState(api: ServiceApi, clients: readonly number[], options: ReadLiveOptions = {}): Promise<LiveState> {
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = abort.signal;
  const limit = createLimiter(options.concurrency ?? 8);
  const heap = options.heap ?? new HeapGrowth();
  const schedule: typeof limit = async (call) => {
    const page = await limit(call);
    heap.check();
    return page;
  };
  const changedAt = new Map<number, number>();
  const context: ReadContext = {
    api, signal, schedule, intern: new Interner(),
    paging: (key, what) => {
      const expected = options.expected?.get(key);
      return { signal, what, schedule, ...(expected !== undefined ? { expected } : {}) };
    },
    listed: (key, records) => options.onListed?.(key, records),
    changed: (client, seconds) => {
      if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > (changedAt.get(client) ?? Number.NEGATIVE_INFINITY)) changedAt.set(client, seconds);
    },
  };
  const reads = registeredClasses().map((kind) => ({ kind, read: liveClass(kind).read(context) }));

  // A refusal names the client and where the policies declare it.
  const forClient = (client: number, listing: () => Promise<void>) => async () => {
    try {
      await listing();
    } catch (error) {
      throw error instanceof ApiAuthError ? refusedFor(client, error, options.clientSources) : error;
    }
  };
  const listings = clients.flatMap((client) => reads.flatMap(({ read }) => read.listings(client)).map((listing) => forClient(client, listing)));

  try {
    // Every listing starts at once; `schedule` bounds the page calls in flight.
    await runBounded(listings, listings.length, abort);
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  // Sound: each class's read yields that class's live objects.
  const objects = Object.fromEntries(reads.map(({ kind, read }) => [kind, read.result()])) as Record<ObjectClass, unknown> as ObjectsByClass<'live'>;
  return { clients: [...clients].sort((a, b) => a - b), ...classObjects(objects), ...(changedAt.size > 0 ? { changedAt } : {}) };
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
