/**
 * Offset paging to the end of a listing. The API has no cursor: when an object
 * on an earlier page is deleted between two page calls, every later object
 * shifts back by one and plain offsets never see one of them (a plan from that
 * view creates it again: a duplicate). So each page after the first starts one
 * object early, on the last object of the page before; when it is not that
 * object, the listing moved under the read and it starts again from the top.
 * A short page is the end.
 *
 * The API gives no total, but the caller usually knows about how many objects
 * to expect (the desired state, the last cycle's listing): the pages up to that
 * count are fetched at once, and only the pages past it one after another. The
 * overlap check does not depend on the order pages were fetched in: a shift
 * between the calls of two neighbouring pages, whichever came first, leaves the
 * later page not starting on the last object of the earlier one.
 */
import { ListingUnstableError } from '../errors.js';

/** Runs one page call when a slot is free (bounds the calls in flight across listings). */
export type PageScheduler = <R>(call: () => Promise<R>) => Promise<R>;

export interface PagingOptions {
  readonly signal?: AbortSignal;
  /** Names the listing in the error, e.g. `rules of client 10042`. */
  readonly what?: string;
  /** Full reads to try before giving up. Default 5. */
  readonly attempts?: number;
  /** Objects the listing is expected to hold: the pages these fill are requested at once. */
  readonly expected?: number;
  /** Default: every page call starts at once. */
  readonly schedule?: PageScheduler;
}

export const DEFAULT_READ_ATTEMPTS = 5;

type FetchPage<T> = (offset: number, limit: number) => Promise<T[]>;

export async function fetchAllPages<T extends { readonly id: number }>(
  fetchPage: FetchPage<T>,
  limit: number,
  options: PagingOptions = {},
): Promise<T[]> {
  // A page of one object would only ever hold the overlap: no progress.
  if (!Number.isInteger(limit) || limit < 2) throw new RangeError(`page limit must be at least 2, got ${limit}`);
  const attempts = options.attempts ?? DEFAULT_READ_ATTEMPTS;
  const predictedPages = options.expected === undefined ? 1 : minimumListingCalls(options.expected, limit);
  const schedule = options.schedule ?? ((call) => call());
  for (let attempt = 0; attempt < attempts; attempt++) {
    const all = await readOnce(fetchPage, limit, predictedPages, schedule, options.signal);
    if (all) return all;
  }
  throw new ListingUnstableError(
    `the ${options.what ?? 'listing'} changed between page calls on each of ${attempts} reads; nothing is planned or checked from a partial view`,
  );
}

/** The offset of page `index`: each page starts on the last object of the one before. */
const pageOffset = (index: number, limit: number): number => index * (limit - 1);

/** Every object, or undefined when a page did not start where the one before ended. */
async function readOnce<T extends { readonly id: number }>(
  fetchPage: FetchPage<T>,
  limit: number,
  predictedPages: number,
  schedule: PageScheduler,
  signal: AbortSignal | undefined,
): Promise<T[] | undefined> {
  // The first short page ends the listing, and a failed page the read: predicted
  // pages past either that have not started yet are not sent.
  let endPage = Number.POSITIVE_INFINITY;
  let failed = false;
  const requested = Array.from({ length: predictedPages }, (_, index) => schedule(async () => {
    if (index > endPage || failed) return undefined;
    signal?.throwIfAborted();
    try {
      const page = await fetchPage(pageOffset(index, limit), limit);
      if (page.length < limit) endPage = Math.min(endPage, index);
      return page;
    } catch (error) {
      failed = true;
      throw error;
    }
  }));
  // Settle every call before judging, so that none is left running after a failure.
  const settled = await Promise.allSettled(requested);
  const all: T[] = [];
  for (let index = 0; ; index++) {
    let page: T[] | undefined;
    if (index < predictedPages) {
      const result = settled[index];
      if (result?.status === 'rejected') throw result.reason;
      page = result?.value;
    } else {
      signal?.throwIfAborted();
      page = await schedule(() => fetchPage(pageOffset(index, limit), limit));
    }
    // Never: a page is left unsent only past a short page, which ends this loop first.
    if (!page) return undefined;
    if (index > 0) {
      if (page[0]?.id !== all.at(-1)?.id) return undefined;
      // Same object on both pages: keep the later answer, the newer version.
      all.pop();
    }
    all.push(...page);
    if (page.length < limit) return all;
  }
}

/**
 * Listing calls a full read of `count` objects takes at page size `limit`: the
 * first page holds `limit` objects, each later one `limit - 1` new ones, and the
 * last page is short (possibly just the overlap).
 */
export function minimumListingCalls(count: number, limit: number): number {
  return count < limit ? 1 : Math.floor((count - 1) / (limit - 1)) + 1;
}
