/**
 * One class of object the service holds (rules, IP-list entries) as the
 * planner and everything after it see it: changes are model values (M), and
 * `toPlanChange` is the class's part of the plan document's codec (C). Like a Terraform resource, each
 * class implements this once, in one module: a small core, and the
 * capabilities it has (as the plugin framework's `Resource` and
 * `ResourceWithImportState`). Code over plans looks the class up by the
 * change's `kind` and never asks which class a change is.
 */
import type { IpApiName } from '../../model/ip-list-apis.js';
import type { Change } from '../../model/change.js';
import type { KeyedDiff } from '../diff-keyed.js';
import type { Source } from '../../model/source.js';
import type { ObjectCounts } from '../counts.js';
import type { Hash128 } from '../hash128.js';
import type { PlanChange } from '../types.js';

/** A class's part of the state digests (digest.ts): each object hashed on its own, the sums under the class's label. */
export interface ClassDigest<D, L> {
  readonly label: string;
  desired(hash: Hash128, object: D): Hash128;
  live(hash: Hash128, object: L): Hash128;
}

/** One owned object (an IP value) a plan deletes because no policy declares it: its id, and the value or the rule name its mark keeps. */
export interface UndeclaredObject {
  readonly id: number;
  readonly value?: string;
  readonly name?: string;
}

/** What one change deletes that the mass-delete guard counts (safety.ts). */
export interface GuardedDeletes {
  /** Objects the guard counts: deleted as no longer declared, or moved by `--adopt`. */
  readonly count: number;
  /** Of those, values `--adopt` moves out of the list that held them. */
  readonly moves: number;
}

/**
 * The core every class brings: what a plan needs to order, count, encode,
 * guard and report its changes. What a class can do beyond it is a capability
 * below, its own interface; code that needs one asks with its type guard and
 * passes over a class without it.
 */
export interface PlanClass<M = Change, C = PlanChange, D = unknown, L = unknown> {
  /** Its part of the digests of the desired and the live state. */
  readonly digest: ClassDigest<D, L>;
  /** Within a client, classes of lower order come first in a plan (rules before IP entries). */
  readonly order: number;
  /** What one object of the class is called in messages: `rule`, `IP object`. */
  readonly noun: string;
  /** A live object in a short list: `rule #12`, `203.0.113.5 #4471`. */
  objectLabel(object: { readonly id: number; readonly value?: string | undefined }): string;

  /** The account a model change writes to. */
  client(change: M): number;
  /** The class's part of the plan order within an action and client (an id, a list). */
  sortTail(change: M): string;
  /** The first policy line that declared a create, for the plan order; undefined for other actions. */
  firstSource(change: M): Source | undefined;
  /** The change as the plan's JSON carries it. */
  toPlanChange(change: M): C;

  /** The objects (values) one change touches (see counts.ts). */
  counts(change: M): ObjectCounts;
  /** What one change deletes that the mass-delete guard counts. */
  guarded(change: M): GuardedDeletes;
  /** One line naming the change, for apply's report: `create rule block-admin (a.yaml:4:5)`. */
  describe(change: M): string;
  /** The ids a delete removes; none for other actions. */
  deletedIds(change: M): readonly number[];
  /**
   * The change without what touches held objects (their ids, or `client|list|value`
   * of their values): undefined when nothing is left, or a narrower change.
   */
  without(change: M, heldIds: ReadonlySet<number>, heldValues: ReadonlySet<string>): M | undefined;
}

/**
 * A class whose declared and live objects pair up by key, for a class no
 * cross-class pass reads (diff-keyed.ts). The rules and IP entries have none:
 * recognition and adoption diff them together (diff.ts).
 */
export interface PlanClassWithKeyedDiff<M = Change, C = PlanChange, D = unknown, L = unknown> extends PlanClass<M, C, D, L> {
  readonly keyed: KeyedDiff<D, L, M>;
}

/** A class whose creates and adoptions take owned objects over (a replaced rule): apply orders the deletes by them. */
export interface PlanClassWithReplacements<M = Change, C = PlanChange, D = unknown, L = unknown> extends PlanClass<M, C, D, L> {
  /** Owned ids a create or adoption takes over: their deletes wait for it to succeed. */
  takesOver(change: M): readonly number[];
  /** Owned ids whose deletes run before the creates (a kind the service keeps one per scope, replaced). */
  deletesFirst(change: M): readonly number[];
}

/** A class whose deletes of undeclared objects the plan names one by one (undeclared.ts). */
export interface PlanClassWithUndeclared<M = Change, C = PlanChange, D = unknown, L = unknown> extends PlanClass<M, C, D, L> {
  /** The owned objects (values) a delete removes because no policy declares them; none for other actions. */
  undeclared(change: M): readonly UndeclaredObject[];
}

/** A class that counts its own API calls (deletes may share calls); without, each change is one call. */
export interface PlanClassWithCallCount<M = Change, C = PlanChange, D = unknown, L = unknown> extends PlanClass<M, C, D, L> {
  /** API calls the class's changes of a plan take together, on the account's IP-list API. */
  calls(changes: readonly M[], context: { readonly ipApi: IpApiName }): number;
}

/** A class `--target` narrows to the declarations it names (target.ts); without, a targeted plan leaves the class out. */
export interface PlanClassWithTarget<M = Change, C = PlanChange, D = unknown, L = unknown> extends PlanClass<M, C, D, L> {
  /**
   * The part of a create, update or adoption that declarations `declared`
   * accepts wrote (an IP change keeps those values only); undefined when none
   * did, and for a delete, which no declaration writes.
   */
  declaredBy(change: M, declared: (source: Source) => boolean): M | undefined;
}

/** A class whose creates the daemon's churn breaker holds when they keep coming back (reconcile/churn-breaker.ts). */
export interface PlanClassWithChurnHold<M = Change, C = PlanChange, D = unknown, L = unknown> extends PlanClass<M, C, D, L> {
  /** What a create writes, as a key that stays the same while its declaration does. */
  writeKey(change: M): string;
  /** `list|value` of each value a create writes, to find its copy when the answer named no id. */
  writtenValues(change: M): readonly string[];
}

/** Every capability but the keyed diff: what the built-in classes bring. */
export type BuiltInPlanClass<M, C, D, L> = PlanClassWithReplacements<M, C, D, L> & PlanClassWithUndeclared<M, C, D, L>
  & PlanClassWithCallCount<M, C, D, L> & PlanClassWithTarget<M, C, D, L> & PlanClassWithChurnHold<M, C, D, L>;

export const hasKeyedDiff = <M, C, D, L>(planClass: PlanClass<M, C, D, L>): planClass is PlanClassWithKeyedDiff<M, C, D, L> => 'keyed' in planClass;
export const hasReplacements = <M, C, D, L>(planClass: PlanClass<M, C, D, L>): planClass is PlanClassWithReplacements<M, C, D, L> => 'takesOver' in planClass;
export const hasUndeclared = <M, C, D, L>(planClass: PlanClass<M, C, D, L>): planClass is PlanClassWithUndeclared<M, C, D, L> => 'undeclared' in planClass;
export const hasCallCount = <M, C, D, L>(planClass: PlanClass<M, C, D, L>): planClass is PlanClassWithCallCount<M, C, D, L> => 'calls' in planClass;
export const hasTarget = <M, C, D, L>(planClass: PlanClass<M, C, D, L>): planClass is PlanClassWithTarget<M, C, D, L> => 'declaredBy' in planClass;
export const hasChurnHold = <M, C, D, L>(planClass: PlanClass<M, C, D, L>): planClass is PlanClassWithChurnHold<M, C, D, L> => 'writeKey' in planClass;
