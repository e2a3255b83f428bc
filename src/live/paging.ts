/**
 * Offset paging to the end of a listing. Pages of one listing are fetched in
 * order: the API gives no total, so a short page is the only end marker and
 * fetching ahead would cost calls past the minimum. Different listings run
 * concurrently instead (see read.ts).
 */
export async function fetchAllPages<T>(
  fetchPage: (offset: number, limit: number) => Promise<T[]>,
  limit: number,
  signal?: AbortSignal,
): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += limit) {
    signal?.throwIfAborted();
    const page = await fetchPage(offset, limit);
    all.push(...page);
    if (page.length < limit) return all;
  }
}

/** Listing calls a full read of `count` objects takes at page size `limit`. */
export function minimumListingCalls(count: number, limit: number): number {
  return Math.floor(count / limit) + 1;
}
