/**
 * Read-after-write: the service's listings lag its writes by seconds. Apply
 * returns only once the listings it touched show every write it made (or a
 * bounded wait passes), so a `plan` right after shows no changes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { classesInPlanOrder } from '../plan/classes/index.js';
import { hasListingCheck } from './classes/class.js';
import { applyClass } from './classes/index.js';
import type { ChangeResult } from '../audit/change-result.js';
import type { ListingCheck } from './listing-check.js';
import type { ListingReads } from './listing-reads.js';

export interface SettleOptions {
  /** Reads each listing afresh, and keeps it for the copy check that follows a settled wait. */
  readonly reads: ListingReads;
  readonly owner: string;
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly stop?: AbortSignal;
}

export async function waitForListings(results: readonly ChangeResult[], options: SettleOptions): Promise<boolean> {
  if (options.timeoutMs <= 0) return true;
  // A class without a listing check is not waited for.
  const checks = new Map(classesInPlanOrder().flatMap((kind) => {
    const objectClass = applyClass(kind);
    return hasListingCheck(objectClass) ? [[kind, objectClass.listingCheck()] as const] : [];
  }));
  for (const result of results) {
    if (result.status === 'applied' || result.status === 'already-done') checks.get(result.change.kind)?.expect(result.change, result);
  }
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await everyShown(checks.values(), options)) return true;
    const left = deadline - Date.now();
    if (left <= 0 || options.stop?.aborted) return false;
    // A stop cuts the wait short and starts no further listing call; the last look is at the deadline, not past it.
    await sleep(Math.min(options.intervalMs, left), undefined, options.stop ? { signal: options.stop } : {}).catch(() => undefined);
    if (options.stop?.aborted) return false;
  }
}

async function everyShown(checks: Iterable<ListingCheck>, options: SettleOptions): Promise<boolean> {
  try {
    for (const check of checks) if (!await check.shown(options.reads, options.owner)) return false;
    return true;
  } catch (error) {
    // A stop aborts the listing read in flight: not settled, and no error of its own.
    if (options.stop?.aborted) return false;
    throw error;
  }
}
