/**
 * One object class as the applier writes it: the calls behind each action, a
 * small core and the capabilities the class has. The order of the phases
 * (deletes that must go first, creates, updates and adoptions, deletes) is
 * the applier's; what a call is, is the class's.
 */
import type { ChangeResult } from '../../audit/change-result.js';
import type { Change } from '../../model/change.js';
import type { ExecuteContext, Outcome } from '../execute.js';
import type { ChangeRun, Indexed } from '../run-change.js';
import type { CopyFinder } from '../copy-finder.js';
import type { ListingCheck } from '../listing-check.js';

/** The core every class brings: its writes, and its deletes in their phase. What it can do beyond is a capability below. */
export interface ApplyClass<C = Change> {
  /** One create, update or adoption. `referencedId`: what the create this one waits for answered. */
  write(change: C, context: ExecuteContext, referencedId?: number): Promise<Outcome>;
  /**
   * Every delete of the class in one phase (a class may batch them), each
   * change recorded. `blocked`: ids taken over by a write that failed; they stay.
   */
  runDeletes(items: readonly Indexed<C>[], run: ChangeRun, blocked: ReadonlySet<number>): Promise<void>;
}

/** A class whose creates may need an id another create of the plan answers (an ignore_regex rule its regex). */
export interface ApplyClassWithReferences<C = Change> extends ApplyClass<C> {
  /** A create that needs such an id: what it waits for, in words. */
  waitsFor(change: C): string | undefined;
  /** That id, once the create it waits for has succeeded. */
  referencedId(change: C, results: readonly ChangeResult[]): number | undefined;
}

/** A class whose listings apply waits for after its writes (settle.ts); without, apply does not wait for it. */
export interface ApplyClassWithListingCheck<C = Change> extends ApplyClass<C> {
  /** A fresh check of what the class's listings must show after the writes. */
  listingCheck(): ListingCheck<C>;
}

/** A class whose copies another writer made apply finds and deletes (concurrent-copies.ts); without, none are looked for. */
export interface ApplyClassWithCopyFinder<C = Change> extends ApplyClass<C> {
  /** A fresh finder of other writers' copies of what the apply created. */
  copyFinder(): CopyFinder<C>;
}

/** Every capability: what the built-in classes bring. */
export type BuiltInApplyClass<C> = ApplyClassWithReferences<C> & ApplyClassWithListingCheck<C> & ApplyClassWithCopyFinder<C>;

export const hasReferences = <C>(applyClass: ApplyClass<C>): applyClass is ApplyClassWithReferences<C> => 'waitsFor' in applyClass;
export const hasListingCheck = <C>(applyClass: ApplyClass<C>): applyClass is ApplyClassWithListingCheck<C> => 'listingCheck' in applyClass;
export const hasCopyFinder = <C>(applyClass: ApplyClass<C>): applyClass is ApplyClassWithCopyFinder<C> => 'copyFinder' in applyClass;
