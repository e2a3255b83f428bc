/**
 * The plan as data: exactly what `--format json` prints and `apply --plan FILE`
 * reads back. Keys are snake_case like the rest of the JSON; a change carries the
 * full canonical object, so a reviewer sees exactly what will be written.
 * `apply --plan` trusts none of it: it plans again and compares the changes.
 * User text (rule `comment`, IP `reason`) is stored without the owner mark; the
 * applier adds `withOwnerMark(text, plan.owner)`.
 */

import type { DeleteReason } from '../model/change.js';
import type { ConditionType, Point } from '../model/rule.js';
import type { FieldValue } from '../rules/field.js';
import type { IpListName, IpRuleType } from '../model/ip.js';

/**
 * 4: `kind` is only ever an object class (`rule`, `ip`) and `type` only a
 * rule's type as the policy files write it: a rule's API type is `api_type`,
 * a condition's comparison `match` (format 3: `kind`/`type`, and `type`).
 * 3: a change may carry its `impact` (evidence, left out of the checksum);
 * 2: the digests add up a hash per object, the checksum hashes the changes
 * as values (format 1: sha256 of sorted lines and of canonical JSON).
 */
export const PLAN_FORMAT_VERSION = 4;

/**
 * The application(s) a change concerns: one id, `'all'` (account-wide, pool 0),
 * or several ids sorted (in a list, `0` stands for account-wide).
 */
export type Application = number | 'all' | readonly number[];

export interface PlanCondition {
  readonly point: Point;
  /** How the value is compared: `equal`, `iequal`, `regex`, `absent`. */
  readonly match: ConditionType;
  readonly value: string | null;
}

/** A rule as declared or listed, in canonical form (client on the change). */
export interface PlanRule {
  /** The rule's type as the policy files write it (`vpatch`, `rate_limit`, ...). */
  readonly type: string;
  /** The service API's `type` for it. */
  readonly api_type: string;
  /** Sorted canonically (`sortConditions`). */
  readonly conditions: readonly PlanCondition[];
  readonly point: readonly Point[];
  /** The kind's own fields by their policy-file names (`attack`, `rate`, ...), defaults filled in. */
  readonly fields: Readonly<Record<string, FieldValue>>;
  readonly comment?: string;
}

/** An IP-list object: one create request, or what a deleted object held. */
export interface PlanIpObject {
  readonly list: IpListName;
  readonly rule_type: IpRuleType;
  readonly pools: readonly number[];
  /** Unix seconds; 33223139044 means never. */
  readonly expires_at: number;
  readonly reason?: string;
  /** Sorted. */
  readonly values: readonly string[];
}

/** The attributes an IP object had before a forced create moved its values out. */
export interface PlanIpBefore {
  readonly id: number;
  /** Unix seconds; 33223139044 means never. */
  readonly expires_at: number;
  readonly reason?: string;
}

/** A policy line that declared some of a create's values. */
export interface PlanSource {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  readonly values: readonly string[];
}

interface PlanChangeBase {
  readonly client: number;
  readonly application: Application;
  /** With `--impact`: what the change would have done to the traffic the service saw. Not part of the checksum. */
  readonly impact?: ChangeImpact;
}

/**
 * What a change would have done to the requests the service recorded (its
 * hits) in the impact window:
 * - `newly_blocked` / `no_longer_blocked`: requests it would have blocked that
 *   were let through, or let through that were blocked;
 * - `newly_detected` / `no_longer_detected`: flagged requests it would have
 *   made (or stopped being) attacks;
 * - `attack_hits_from`: attack requests from the sources an IP-list entry names;
 * - `none`: the change decides nothing about traffic (a comment, ownership, an expiry);
 * - `not_evaluable`: hits cannot show it (`reason` says why).
 */
export const IMPACT_EFFECTS = ['newly_blocked', 'no_longer_blocked', 'newly_detected', 'no_longer_detected', 'attack_hits_from', 'none', 'not_evaluable'] as const;
export type ImpactEffect = (typeof IMPACT_EFFECTS)[number];

export interface ImpactPath {
  readonly path: string;
  readonly requests: number;
}

export interface ChangeImpact {
  readonly effect: ImpactEffect;
  readonly evaluable: boolean;
  /** Why the change is not evaluable, or what bounds its count. */
  readonly reason?: string;
  /** Distinct requests (`request_id`). */
  readonly requests: number;
  /** Distinct source addresses of those requests. */
  readonly ips: number;
  /** The paths with the most requests, most first (at most five). */
  readonly paths: readonly ImpactPath[];
  /** Distinct paths of those requests. */
  readonly path_count: number;
  /** A few of the requests, for `rampart tune --request` or the console. */
  readonly sample_request_ids: readonly string[];
  /** The count is a floor: the rule also acts on clean traffic, which the service does not record. */
  readonly lower_bound?: true;
}

/** `--target`: the policy files and rule names a plan is narrowed to (plan/target.ts). */
export interface PlanTarget {
  readonly files: readonly string[];
  readonly names: readonly string[];
  /** Changes (or parts of them) of the full plan left out. */
  readonly left_out: number;
}

/** The impact's figures for the whole plan. */
export interface PlanImpact {
  readonly window_seconds: number;
  /** Hits listed, over every listing call. */
  readonly hits_read: number;
  readonly listings: number;
  /** `false` when a listing failed or was cut short: counts are then "at least", and `reason` says why. */
  readonly complete: boolean;
  readonly reason?: string;
  /** Changes whose effect hits cannot show. */
  readonly not_evaluable: number;
  /** `--impact-limit`: the most requests one change may newly block or stop blocking. */
  readonly limit?: number;
  /** Changes past the limit (with `limit`). */
  readonly over_limit?: number;
}

export interface PlanCreateRule extends PlanChangeBase {
  readonly action: 'create';
  readonly kind: 'rule';
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** Owned rule ids deleted later in this plan because this create replaces them. */
  readonly replaces?: readonly number[];
  /** The replaced rule is deleted before this create (a kind the service keeps one per scope). */
  readonly delete_first?: true;
  readonly rule: PlanRule;
}

/**
 * A rule changed in place by one `PUT /v3/hint/{id}`: an update of an owned
 * rule, or the adoption of an unmanaged one.
 */
interface PlanInPlaceRule extends PlanChangeBase {
  readonly kind: 'rule';
  readonly id: number;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** The fields that change (policy-file names), `comment` included when it does; for an adoption often none besides the mark. */
  readonly fields: readonly string[];
  /** Present when a changed field is nested: the keys that change below it (`threshold.count`). */
  readonly keys?: readonly string[];
  /** The rule as it will be. */
  readonly rule: PlanRule;
  /** The rule as it is. */
  readonly before: PlanRule;
  /** Rampart adopted the rule rather than created it (its mark says so, and keeps saying so). */
  readonly adopted?: true;
}

/** One update in place of an owned rule. */
export interface PlanUpdateRule extends PlanInPlaceRule {
  readonly action: 'update';
}

export interface PlanDeleteRule extends PlanChangeBase {
  readonly action: 'delete';
  readonly kind: 'rule';
  readonly id: number;
  /** The rule's name in the policies it was created from, when its mark says. */
  readonly name?: string;
  readonly reason: DeleteReason;
  readonly rule: PlanRule;
}

export interface PlanCreateIp extends PlanChangeBase {
  readonly action: 'create';
  readonly kind: 'ip';
  /** The first declaring line (all of them are in `sources`). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** `true` only to move values out of objects Rampart owns (an update or a rescue). */
  readonly force: boolean;
  /** Owned object ids the forced values move out of. */
  readonly replaces?: readonly number[];
  /** What each of those objects held before (same order as `replaces`): the old side of old → new. */
  readonly before?: readonly PlanIpBefore[];
  readonly object: PlanIpObject;
  readonly sources: readonly PlanSource[];
}

export interface PlanDeletedIpObject {
  readonly id: number;
  readonly reason: Exclude<DeleteReason, 'replaced'>;
  readonly application: Application;
  /** Values the object held before the plan. */
  readonly size: number;
  /** `values`: what the delete removes (after earlier creates moved `moved` out). */
  readonly object: PlanIpObject;
  readonly moved?: readonly string[];
}

export interface PlanDeleteIp extends PlanChangeBase {
  readonly action: 'delete';
  readonly kind: 'ip';
  /** Every object id of the client this one call deletes, sorted, unique. */
  readonly ids: readonly number[];
  readonly objects: readonly PlanDeletedIpObject[];
}

/**
 * Adoption (`--adopt`) of an unmanaged rule: one `PUT /v3/hint/{id}` adds the
 * owner mark to its comment (and changes `fields`, when the declaration
 * differs). Never a create or a delete.
 */
export interface PlanAdoptRule extends PlanInPlaceRule {
  readonly action: 'adopt';
}

/** Adoption of unmanaged IP values: one forced create in their own list, with the owner mark. */
export interface PlanAdoptIp extends PlanChangeBase {
  readonly action: 'adopt';
  readonly kind: 'ip';
  /** The unmanaged objects the values are taken from. */
  readonly ids: readonly number[];
  /** The first declaring line (all of them are in `sources`). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** Attributes that change besides the mark (`expires`, `reason`); often none. */
  readonly fields: readonly string[];
  /** When `fields` is not empty: what each object in `ids` held (same order), the old side of old → new. */
  readonly before?: readonly PlanIpBefore[];
  readonly object: PlanIpObject;
  readonly sources: readonly PlanSource[];
}

/** In the order they run: creates, updates and adoptions, deletes. */
export type PlanChange = PlanCreateRule | PlanUpdateRule | PlanDeleteRule | PlanCreateIp | PlanDeleteIp | PlanAdoptRule | PlanAdoptIp;

/** The ids of the live objects a document's change touches (one rule, or IP objects); none for a create. */
export function planChangeIds(change: PlanChange): readonly number[] {
  return 'ids' in change ? change.ids : 'id' in change ? [change.id] : [];
}

/**
 * A declared object an unmanaged live object (no owner mark) already provides:
 * nothing is created, and the object is not Rampart's, so removing the
 * declaration will not delete it. `--adopt` makes it Rampart's.
 */
export interface PlanUnmanaged {
  readonly kind: 'rule' | 'ip';
  readonly client: number;
  /** The live object's id. */
  readonly id: number;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** For IP entries: the value. */
  readonly value?: string;
}

/**
 * An owned rule no longer declared that a client cannot delete (see
 * `Plan.kept`): a counter, or an adopted rule the service made.
 */
export interface PlanKept {
  readonly kind: 'rule';
  readonly client: number;
  readonly id: number;
  /** The rule kind (`type` in the policy files). */
  readonly type: string;
  /** The rule's name in the policies, when its mark says. */
  readonly name?: string;
  /** `always`: the kind cannot be deleted (counters); `adopted`: the service made it (default controls). */
  readonly undeletable: 'always' | 'adopted';
}

/** An exported unmanaged object no longer declared (see `Plan.left_unmanaged`). */
export interface PlanLeftUnmanaged {
  readonly kind: 'rule' | 'ip';
  readonly client: number;
  readonly id: number;
  /** For IP entries: the value. */
  readonly value?: string;
  /** The exported policy file that declared it. */
  readonly file: string;
}

/**
 * A declaration an unmanaged object stands in the way of: a one-per-scope rule
 * held unmanaged with other values, or a value held unmanaged in another list
 * for overlapping applications. Planning stops on it unless `--adopt`.
 */
export interface PlanConflict extends Omit<PlanUnmanaged, 'value'> {
  readonly message: string;
  /** `false` where `--adopt` cannot resolve it; the message says what can. */
  readonly adoptable?: false;
}

export interface PlanNote {
  readonly level: 'info' | 'warning';
  readonly kind: 'rule' | 'ip';
  readonly client: number;
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly id: number;
  readonly message: string;
}

/**
 * Objects (values), not calls. `replace` counts objects re-created to change
 * them (a rule's comment, an IP entry's expiry or reason) or moved out of an
 * object being deleted; their old copies are not counted in `delete`.
 */
export interface PlanSummary {
  readonly create: number;
  /** Rules updated in place. */
  readonly update: number;
  readonly delete: number;
  readonly unchanged: number;
  readonly replace: number;
  /** Unmanaged objects (values) made Rampart's (`--adopt`). */
  readonly adopt: number;
}

/** The guard's verdict with the default or configured limits, without `--force`. */
export interface PlanSafety {
  readonly ok: boolean;
  /** Objects deleted as not declared, and values `--adopt` moves to another list (replacements and duplicates excluded). */
  readonly delete_count: number;
  /** Present when some are: how many of `delete_count` are moves made by `--adopt`. */
  readonly move_count?: number;
  /** Objects carrying our owner mark before the plan. */
  readonly owned_count: number;
  readonly share: number;
  readonly threshold: number;
  readonly min_owned: number;
}

/** The document without its checksum and digests: what a text plan and the status page show (codec.ts `encodePlanBody`). */
export type PlanBody = Omit<PlanDocument, 'checksum' | 'desired_digest' | 'live_digest'>;

/** The plan as a versioned document: exactly what `--format json` prints and `apply --plan FILE` reads back. */
export interface PlanDocument {
  readonly format_version: typeof PLAN_FORMAT_VERSION;
  readonly owner: string;
  /** Present when updates in place were turned off (`--rule-updates replace`); `apply --plan` plans the same way. */
  readonly rule_updates?: 'replace';
  /** Present when unmanaged objects equal to declarations are adopted (`--adopt`); `apply --plan` plans the same way. */
  readonly adopt?: true;
  /** Present with `--target`: the declarations the plan is narrowed to, and how many changes of the full plan it leaves out. */
  readonly target?: PlanTarget;
  readonly summary: PlanSummary;
  /** API calls the changes take (rule deletes of one client share calls of up to 1000 ids). */
  readonly api_calls: number;
  readonly safety: PlanSafety;
  /** Hash128 (32 hex digits, codec.ts `planChecksum`) of `changes` as JSON values, whatever their members' order. */
  readonly checksum: string;
  /** sha256 (hex) over the policies' objects, whatever their order or place (digest.ts); `apply --plan` compares it. */
  readonly desired_digest: string;
  /** The same over the live objects listed, with their ids and owners. */
  readonly live_digest: string;
  readonly changes: readonly PlanChange[];
  readonly notes: readonly PlanNote[];
  /** Declarations satisfied by unmanaged objects and left so (without `--adopt`). */
  readonly unmanaged: readonly PlanUnmanaged[];
  /**
   * Objects an export wrote into the policies while nobody managed them, that
   * no declaration matches any more: still in the account, not deleted (not
   * Rampart's). Adopt them before removing their declaration to have them deleted.
   */
  readonly left_unmanaged: readonly PlanLeftUnmanaged[];
  /**
   * Present when some are: owned rules the policies no longer declare that a
   * client cannot delete. No call is made; each stays as the service keeps it.
   */
  readonly kept?: readonly PlanKept[];
  /** Present only when an unmanaged object blocks a declaration (never in a plan that is applied). */
  readonly conflicts?: readonly PlanConflict[];
  /** With `--impact`: the evidence's window and how much was read; each change carries its own. */
  readonly impact?: PlanImpact;
}
