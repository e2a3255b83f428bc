/**
 * One object class as the applier writes it: the calls behind each action.
 * The order of the phases (deletes that must go first, creates, updates and
 * adoptions, deletes) is the applier's; what a call is, is the class's.
 */
import type { ChangeResult } from '../../audit/change-result.js';
import type { Change } from '../../model/change.js';
import type { ExecuteContext, Outcome } from '../execute.js';
import type { ChangeRun, Indexed } from '../run-change.js';
import type { CopyFinder } from '../copy-finder.js';
import type { ListingCheck } from '../listing-check.js';

export interface ApplyClass<C = Change> {
  /** One create, update or adoption. `referencedId`: what the create this one waits for answered. */
  write(change: C, context: ExecuteContext, referencedId?: number): Promise<Outcome>;
  /**
   * Every delete of the class in one phase (a class may batch them), each
   * change recorded. `blocked`: ids taken over by a write that failed; they stay.
   */
  runDeletes(items: readonly Indexed<C>[], run: ChangeRun, blocked: ReadonlySet<number>): Promise<void>;
  /** A create that needs an id another create of the plan answers: what it waits for, in words. */
  waitsFor(change: C): string | undefined;
  /** That id, once the create it waits for has succeeded. */
  referencedId(change: C, results: readonly ChangeResult[]): number | undefined;
  /** A fresh check of what the class's listings must show after the writes (settle.ts). */
  listingCheck(): ListingCheck<C>;
  /** A fresh finder of other writers' copies of what the apply created (concurrent-copies.ts). */
  copyFinder(): CopyFinder<C>;
}
