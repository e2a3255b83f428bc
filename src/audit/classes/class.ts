/**
 * One object class as audit sees it: why a write of it is needed (cause.ts
 * explains the two witnesses) and what its audit record lists (entry.ts); a
 * small core and the capabilities the class has.
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

/** The core every class brings: what a write's audit record says. What it can do beyond is a capability below. */
export interface AuditClass<C = Change> {
  /** What the change's audit record is about. */
  subject(change: C): Subject;
  /**
   * Why a create, update or delete is made, from the change and the live
   * state; undefined when it follows another change (see `causeAfter`; a class
   * without it has such a change's cause `unknown`).
   */
  cause(change: C, context: CauseContext): WriteCause | undefined;
  /** What the change's audit record lists. */
  listed(change: C, result: ChangeResult): Listed;
}

/** A class the converged memory remembers, to tell drift from intent later (cause.ts); without, only the owner mark tells. */
export interface AuditClassWithMemory<C = Change, D = unknown> extends AuditClass<C> {
  /** What the memory keeps of a declared object. */
  declaredKey(object: D): string;
}

/** A class whose changes may follow another of the plan (a replaced rule goes for the reason its replacement comes). */
export interface AuditClassWithFollowUps<C = Change> extends AuditClass<C> {
  /** The second pass: the cause of a change `cause` left undefined. */
  causeAfter(change: C, why: readonly (WriteCause | undefined)[], context: CauseContext): WriteCause;
}

/** A class whose replacements name the fields they change, against the object they replace. */
export interface AuditClassWithReplacedFields<C = Change> extends AuditClass<C> {
  /** Those fields; none for other changes. */
  replacedFields(change: C, live: LiveState): readonly string[];
}

/** Every capability: what the built-in classes bring. */
export type BuiltInAuditClass<C, D> = AuditClassWithMemory<C, D> & AuditClassWithFollowUps<C> & AuditClassWithReplacedFields<C>;

export const hasMemory = <C>(auditClass: AuditClass<C>): auditClass is AuditClassWithMemory<C> => 'declaredKey' in auditClass;
export const hasFollowUps = <C>(auditClass: AuditClass<C>): auditClass is AuditClassWithFollowUps<C> => 'causeAfter' in auditClass;
export const hasReplacedFields = <C>(auditClass: AuditClass<C>): auditClass is AuditClassWithReplacedFields<C> => 'replacedFields' in auditClass;

/** Memory alone: was this declared (and converged) last time? */
export function remembered(declaredThen: (previous: DeclaredFingerprints) => boolean, previous?: DeclaredFingerprints): WriteCause {
  if (!previous) return 'unknown';
  return declaredThen(previous) ? 'drift' : 'intent';
}

/** Values and ids beyond this many are counted, not listed: a log line stays a line. */
export const MAX_LISTED = 20;
