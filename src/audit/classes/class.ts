/**
 * One object class as audit sees it: why a write of it is needed (cause.ts
 * explains the two witnesses) and what its audit record lists (entry.ts).
 */
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { LiveState } from '../../model/state.js';
import type { Change } from '../../model/change.js';
import type { Application } from '../../plan/change-document.js';
import type { Plan } from '../../plan/model.js';
import type { ChangeResult } from '../change-result.js';
import type { DeclaredFingerprints } from '../declared-fingerprints.js';
import type { WriteCause } from '../write-cause.js';

export interface CauseContext {
  readonly plan: Plan;
  readonly live: LiveState;
  /** Each class's live objects by id (an IP object holds several values). */
  readonly liveById: { readonly [K in ObjectClass]: ReadonlyMap<number, readonly ObjectClassModels[K]['live'][]> };
  readonly current: DeclaredFingerprints;
  readonly previous?: DeclaredFingerprints | undefined;
}

/** The ids and values an audit record lists (see AuditEntry). */
export interface Listed {
  /** An IP create's values, the first MAX_LISTED of `count`. */
  readonly values?: readonly string[];
  /** The rule's id; the IP objects' ids (created, where the answer lists them, deleted, or adopted from). */
  readonly id?: number;
  readonly ids?: readonly number[];
  /** How many values or ids the write concerns, when more than are listed. */
  readonly count?: number;
}

/** What a write is about: the account, the applications, and the declaration it was made from. */
export interface Subject {
  readonly client: number;
  readonly application: Application;
  readonly name?: string;
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
}

export interface AuditClass<C = Change, D = unknown> {
  /** What the converged memory keeps of a declared object to tell drift from intent later (cause.ts). */
  declaredKey(object: D): string;
  /** What the change's audit record is about. */
  subject(change: C): Subject;
  /** Why a create, update or delete is made, from the change and the live state; undefined when it follows another change (see `causeAfter`). */
  cause(change: C, context: CauseContext): WriteCause | undefined;
  /** The second pass: the cause of a change that follows another of the plan (a replaced rule goes for the reason its replacement comes). */
  causeAfter(change: C, why: readonly (WriteCause | undefined)[], context: CauseContext): WriteCause;
  /** The fields a replacement changes against the object it replaces; none for other changes. */
  replacedFields(change: C, live: LiveState): readonly string[];
  /** What the change's audit record lists. */
  listed(change: C, result: ChangeResult): Listed;
}

/** Memory alone: was this declared (and converged) last time? */
export function remembered(declaredThen: (previous: DeclaredFingerprints) => boolean, previous?: DeclaredFingerprints): WriteCause {
  if (!previous) return 'unknown';
  return declaredThen(previous) ? 'drift' : 'intent';
}

/** Values and ids beyond this many are counted, not listed: a log line stays a line. */
export const MAX_LISTED = 20;
