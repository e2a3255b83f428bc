/**
 * Offset paging to the end of a listing. The API has no cursor: when an object
 * on an earlier page is deleted between two page calls, every later object
 * shifts back by one and plain offsets never see one of them (a plan from that
 * view creates it again: a duplicate). So each page after the first starts one
 * object early, on the last object of the page before; when it is not that
 * object, the listing moved under the read and it starts again from the top.
 * A short page is the end. Pages of one listing are fetched in order: the API
 * gives no total, so fetching ahead would cost calls past the minimum.
 * Different listings run concurrently instead (see read.ts).
 */
import { RampartError } from '../errors.js';

/** The listing moved between page calls on every read. Retryable: the next read may be quiet. */
export class ListingUnstableError extends RampartError {
  readonly code = 'listing_unstable';
  override readonly retryable = true;
}

export interface PagingOptions {
  readonly signal?: AbortSignal;
  /** Names the listing in the error, e.g. `rules of client 10042`. */
  readonly what?: string;
  /** Full reads to try before giving up. Default 5. */
  readonly attempts?: number;
}

export const DEFAULT_READ_ATTEMPTS = 5;

export async function fetchAllPages<T extends { readonly id: number }>(
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
  limit: number,
  options: PagingOptions = {},
): Promise<T[]> {
  // A page of one object would only ever hold the overlap: no progress.
  if (!Number.isInteger(limit) || limit < 2) throw new RangeError(`page limit must be at least 2, got ${limit}`);
  const attempts = options.attempts ?? DEFAULT_READ_ATTEMPTS;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const all = await readOnce(fetchPage, limit, options.signal);
    if (all) return all;
  }
  throw new ListingUnstableError(
    `the ${options.what ?? 'listing'} changed between page calls on each of ${attempts} reads; nothing is planned or checked from a partial view`,
  );
}

/** Every object, or undefined when a page did not start where the one before ended. */
async function readOnce<T extends { readonly id: number }>(
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<T[] | undefined> {
  const all: T[] = [];
  for (let offset = 0; ; offset += limit - 1) {
    signal?.throwIfAborted();
    const page = await fetchPage(offset, limit);
    if (offset > 0) {
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
