/**
 * Two writers of one owner at once (a CI apply beside the daemon, two
 * pipelines, two replicas) each create what the policies declare, and the
 * account ends up holding it twice. The service has no lock, so this cannot be
 * prevented; it is cleaned up in the same run. After its writes show in the
 * listings, apply looks for objects of its own owner, written from the same
 * declaration as one it created, that it did not write: copies another run
 * made. Every run keeps the copy with the LOWEST id and deletes the others, so
 * two runs never disagree on which stays, whichever finishes first. For a
 * one-per-scope rule the lowest id is the one the service itself keeps: no gap.
 */
import { appliedCreates, type ChangeResult } from '../audit/change-result.js';
import { classesInPlanOrder } from '../plan/classes/index.js';
import { hasCopyFinder } from './classes/class.js';
import { applyClass } from './classes/index.js';
import type { ConcurrentCopy, CopyOptions } from './copy-finder.js';

/** Finds and deletes the other writers' copies of what `results` created; what it deleted. */
export async function removeConcurrentCopies(results: readonly ChangeResult[], options: CopyOptions): Promise<ConcurrentCopy[]> {
  // A class without a copy finder is not looked at.
  const finders = new Map(classesInPlanOrder().flatMap((kind) => {
    const objectClass = applyClass(kind);
    return hasCopyFinder(objectClass) ? [[kind, objectClass.copyFinder()] as const] : [];
  }));
  for (const result of appliedCreates(results)) finders.get(result.change.kind)?.note(result.change, result);
  const removed: ConcurrentCopy[] = [];
  for (const finder of finders.values()) {
    if (options.stop?.aborted) break;
    removed.push(...await finder.remove(options));
  }
  return removed;
}
