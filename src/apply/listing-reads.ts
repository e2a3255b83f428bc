/**
 * The listings an apply reads after its writes, each kept as last read. The
 * settle check reads them afresh until they show every write; the check for
 * other writers' copies needs exactly such a view, so it takes the settle's
 * last read instead of paging the same listings again (calls stay the minimum).
 * Each class reads its own listings (apply/classes: `*-listing-check.ts`,
 * `*-copies.ts`) under keys it names.
 */
import type { ServiceApi } from '../api/service.js';

/** One listing as a class reads it: its key among all classes' listings, and the read itself. */
export interface ListingRead<T> {
  /** Unique among every class's listings: `rules|10042`, `ip|10042|black`. */
  readonly key: string;
  read(api: ServiceApi, signal: AbortSignal | undefined): Promise<readonly T[]>;
}

export class ListingReads {
  private readonly last = new Map<string, readonly unknown[]>();

  constructor(
    readonly api: ServiceApi,
    readonly stop?: AbortSignal,
  ) {}

  /** A listing, read now. */
  async read<T>(listing: ListingRead<T>): Promise<readonly T[]> {
    const records = await listing.read(this.api, this.stop);
    this.last.set(listing.key, records);
    return records;
  }

  /** A listing as last read, or read now. */
  lastRead<T>(listing: ListingRead<T>): Promise<readonly T[]> {
    // Sound: a key names one listing, read only by `listing.read`.
    const known = this.last.get(listing.key) as readonly T[] | undefined;
    return known ? Promise.resolve(known) : this.read(listing);
  }
}
