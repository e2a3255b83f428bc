/** A class's part of the settle wait (settle.ts), below the apply classes that make it. */
import type { ChangeResult } from '../audit/change-result.js';
import type { Change } from '../model/change.js';
import type { ListingReads } from './listing-reads.js';

/**
 * What one class's listings must show after an apply: ids or write keys
 * present (what was written, not its identity: an object the service stored
 * differently is still found, an older one of the same identity does not
 * stand in for it) and ids absent.
 */
export interface ListingCheck<C = Change> {
  /** Notes what a change that succeeded (or was already done) leaves in the listings. */
  expect(change: C, result: ChangeResult): void;
  /** Whether the listings show every noted write now (reads each listing concerned once, afresh). */
  shown(reads: ListingReads, owner: string): Promise<boolean>;
}
