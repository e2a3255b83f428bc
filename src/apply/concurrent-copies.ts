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
import type { ObjectClass } from '../model/object-class.js';
import type { Change } from '../model/change.js';
import { applyClass } from './classes/index.js';
import type { ListingReads } from './listing-reads.js';

/** A copy another writer made, deleted. */
export interface ConcurrentCopy {
  readonly kind: ObjectClass;
  readonly client: number;
  /** The copy deleted. */
  readonly id: number;
  /** The copy kept (the lowest id). */
  readonly kept: number;
  /** The rule's name from its mark, or the IP values the object held. */
  readonly name?: string;
  readonly values?: readonly string[];
  readonly list?: string;
}

export interface CopyOptions {
  /** The listings as the settle wait last read them (they show this run's writes), and the API to delete through. */
  readonly reads: ListingReads;
  readonly owner: string;
  readonly stop?: AbortSignal;
}

/** One class's side: what this run created, then the copies of it another writer made. */
export interface CopyFinder<C = Change> {
  /** Notes a create this run applied. */
  note(change: C, result: ChangeResult): void;
  /** Deletes the other copies of what was noted, keeping the lowest id of each; what it deleted. */
  remove(options: CopyOptions): Promise<ConcurrentCopy[]>;
}

/** Finds and deletes the other writers' copies of what `results` created; what it deleted. */
export async function removeConcurrentCopies(results: readonly ChangeResult[], options: CopyOptions): Promise<ConcurrentCopy[]> {
  const finders = new Map(classesInPlanOrder().map((kind) => [kind, applyClass(kind).copyFinder()]));
  for (const result of appliedCreates(results)) finders.get(result.change.kind)?.note(result.change, result);
  const removed: ConcurrentCopy[] = [];
  for (const finder of finders.values()) {
    if (options.stop?.aborted) break;
    removed.push(...await finder.remove(options));
  }
  return removed;
}
