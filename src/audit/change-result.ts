/** What became of one change of a plan when it was applied: what audit records and the report lists. */
import type { ErrorCode } from '../errors.js';
import type { FieldRewrite } from '../model/rewrites.js';
import type { Change } from '../model/change.js';
import type { WriteCause } from './write-cause.js';

/** A failed change's code: an error's code, or `dependency` (a change that needs a create that failed). */
export type ChangeErrorCode = ErrorCode | 'dependency';

export type ChangeStatus =
  /** The call succeeded. */
  | 'applied'
  /** The goal was already reached: a delete of something gone, a create answered 409. */
  | 'already-done'
  /** Not attempted: stopped, or it depends on a create that failed. */
  | 'skipped'
  | 'failed';

/** The ids of the objects a create made: the rule's, or the IP objects' where the answer named them. */
export function createdIds(result: Pick<ChangeResult, 'id' | 'ids'>): readonly number[] {
  return result.id !== undefined ? [result.id] : (result.ids ?? []);
}

/** A create that succeeded, with what it made. */
export type AppliedCreate = ChangeResult & { readonly change: Extract<Change, { readonly action: 'create' }> };

/** The creates of `results` that succeeded: what the churn breaker and the search for concurrent copies look at. */
export function appliedCreates(results: readonly ChangeResult[]): AppliedCreate[] {
  return results.filter((result): result is AppliedCreate => result.status === 'applied' && result.change.action === 'create');
}

export interface ChangeResult {
  readonly index: number;
  readonly change: Change;
  readonly status: ChangeStatus;
  /** Why it failed or was skipped. */
  readonly detail?: string;
  /** Why it failed: the error's code, or `dependency` for a change whose regex rule was not created. */
  readonly errorCode?: ChangeErrorCode;
  /** Id of a created rule. */
  readonly id?: number;
  /** Ids of created IP objects, where the service's answer lists them. */
  readonly ids?: readonly number[];
  /** A created regex rule's `regex_id`. */
  readonly regexId?: number;
  /** Fields the service stored differently from what the create sent. */
  readonly rewrites?: readonly FieldRewrite[];
  /** Why the change was needed (audit/cause.ts). */
  readonly cause?: WriteCause;
  /** Fields a replacement changes, against the object it replaces. */
  readonly changed?: readonly string[];
}
