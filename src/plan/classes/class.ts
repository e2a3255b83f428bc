/**
 * One class of object the service holds (rules, IP-list entries) as the
 * planner and everything after it see it: changes are model values (M), and
 * `toPlanChange` is the class's part of the plan document's codec (C). Like a Terraform resource, each
 * class implements this once, in one module; code over plans looks the class
 * up by the change's `kind` and never asks which class a change is.
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

export interface PlanClass<M = Change, C = PlanChange, D = unknown, L = unknown> {
  /**
   * How its declared and live objects pair up, for a class no cross-class pass
   * reads (diff-keyed.ts); undefined for the rules and IP entries, which
   * recognition and adoption diff together (diff.ts).
   */
  readonly keyed: KeyedDiff<D, L, M> | undefined;
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
  /** The owned objects (values) a delete removes because no policy declares them (undeclared.ts); none for other actions. */
  undeclared(change: M): readonly UndeclaredObject[];
  /** API calls the class's changes of a plan take together (deletes may share calls), on the account's IP-list API. */
  calls(changes: readonly M[], context: { readonly ipApi: IpApiName }): number;
  /** One line naming the change, for apply's report: `create rule block-admin (a.yaml:4:5)`. */
  describe(change: M): string;
  /** Owned ids a create or adoption takes over: their deletes wait for it to succeed. */
  takesOver(change: M): readonly number[];
  /** Owned ids whose deletes run before the creates (a kind the service keeps one per scope, replaced). */
  deletesFirst(change: M): readonly number[];
  /** The ids a delete removes; none for other actions. */
  deletedIds(change: M): readonly number[];
  /**
   * The part of a create, update or adoption that declarations `declared`
   * accepts wrote (an IP change keeps those values only); undefined when none
   * did, and for a delete, which no declaration writes (`--target`).
   */
  declaredBy(change: M, declared: (source: Source) => boolean): M | undefined;

  /** What a create writes, as a key that stays the same while its declaration does (the churn breaker's). */
  writeKey(change: M): string;
  /** `list|value` of each value a create writes, to find its copy when the answer named no id. */
  writtenValues(change: M): readonly string[];
  /**
   * The change without what touches held objects (their ids, or `client|list|value`
   * of their values): undefined when nothing is left, or a narrower change.
   */
  without(change: M, heldIds: ReadonlySet<number>, heldValues: ReadonlySet<string>): M | undefined;
}
