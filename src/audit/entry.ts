/**
 * The audit record of one write: what was written (action, kind, client,
 * application, name, the declaring file:line, the fields it changes, the API
 * id), from which policy revision, why (drift or intent) and with what result.
 * The same record is the `write` log line and an entry of `apply --format json`.
 * Pure.
 */
import { onAction } from '../model/by-action.js';
import type { Change } from '../model/change.js';
import type { ChangeResult } from './change-result.js';
import type { ChangeWhy } from './cause.js';
import type { WriteCause } from './write-cause.js';
import type { Listed, Subject } from './classes/class.js';
import { auditClassOf } from './classes/index.js';

export interface AuditContext {
  /** The policy revision planned from (policy/revision.ts), when one is known. */
  readonly revision?: string;
  /** Per change of the plan, in its order (audit/cause.ts); applyPlan copies it onto each result. */
  readonly why?: readonly ChangeWhy[];
  /** Why a cause is `unknown` where one is (audit/cause.ts `unknownCauseReason`): said once, in the log and the report. */
  readonly unknownCause?: string;
}

/** The record: what was written (Subject), the fields it changes, what it lists (Listed), when and why, and how it ended. */
export interface AuditEntry extends Subject, Listed {
  readonly action: ChangeResult['change']['action'];
  readonly kind: ChangeResult['change']['kind'];
  /** Fields the write changes (an update's, or a replacement's against the object it replaces). */
  readonly fields?: readonly string[];
  readonly revision?: string;
  readonly cause: WriteCause;
  readonly status: ChangeResult['status'];
}

export function auditEntry(result: ChangeResult, context: Pick<AuditContext, 'revision'>): AuditEntry {
  const { change } = result;
  const audit = auditClassOf(change);
  // An update names its fields; a replacement's come from comparing it with what it replaces.
  const fields = onAction<Change, readonly string[] | undefined>(change, {
    create: () => result.changed, delete: () => result.changed, update: (c) => c.fields, adopt: (c) => c.fields,
  });
  return {
    action: change.action,
    kind: change.kind,
    ...audit.subject(change),
    ...(fields?.length ? { fields } : {}),
    ...audit.listed(change, result),
    ...(context.revision !== undefined ? { revision: context.revision } : {}),
    cause: result.cause ?? 'unknown',
    status: result.status,
  };
}
