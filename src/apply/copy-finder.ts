/** A class's part of the search for other writers' copies (concurrent-copies.ts), below the apply classes that make it. */
import type { ChangeResult } from '../audit/change-result.js';
import type { Change } from '../model/change.js';
import type { ObjectClass } from '../model/object-class.js';
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
