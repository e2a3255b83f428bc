/**
 * The plan as data: exactly what `--format json` prints and `apply --plan FILE`
 * reads back. Keys are snake_case like the rest of the JSON; a change carries the
 * full canonical object, so a reviewer sees exactly what will be written.
 * `apply --plan` trusts none of it: it plans again and compares the changes.
 * User text (rule `comment`, IP `reason`) is stored without the owner mark; the
 * applier adds `withOwnerMark(text, plan.owner)`.
 */

import type { IpApiName } from '../model/ip-list-apis.js';
import type { ObjectClass } from '../model/object-class.js';
import type { PlanIpChange } from './classes/ip-document.js';
import type { PlanRuleChange } from './classes/rule-document.js';

/**
 * 4: `kind` is only ever an object class (`rule`, `ip`) and `type` only a
 * rule's type as the policy files write it: a rule's API type is `api_type`,
 * a condition's comparison `match` (format 3: `kind`/`type`, and `type`).
 * 3: a change may carry its `impact` (evidence, left out of the checksum);
 * 2: the digests add up a hash per object, the checksum hashes the changes
 * as values (format 1: sha256 of sorted lines and of canonical JSON).
 */
export const PLAN_FORMAT_VERSION = 4;

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
  /** The model's verdicts for the live configuration against the service's recorded ones, since the configuration last changed. */
  readonly agreement?: { readonly checked: number; readonly agree: number; readonly samples: readonly string[] };
  /** `false` when the agreement is below its threshold (95%): a limit treats the impact as incomplete. */
  readonly reliable?: boolean;
  /** The whole plan against the live configuration, for what filtering modes and IP lists decide. */
  readonly total?: {
    readonly newly_blocked: { readonly requests: number; readonly ips: number };
    readonly no_longer_blocked: { readonly requests: number; readonly ips: number };
  };
  /**
   * Never written by `plan`: set by the reader of a saved plan (`show`, `ci
   * comment`) when the impact does not match `impact_checksum`, saying why
   * its figures are not evidence.
   */
  readonly unverified?: string;
}

/** The document's changes, each class's (plan/classes/*-document.ts), in the order they run: creates, updates and adoptions, deletes. */
export type PlanChange = PlanRuleChange | PlanIpChange;

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
  readonly kind: ObjectClass;
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

/**
 * The owned objects the plan deletes because these policies do not declare
 * them (undeclared.ts): what another directory of the same owner may manage.
 */
export interface PlanUndeclared {
  /** Objects (values), as `summary` counts them. */
  readonly count: number;
  /** The files that last declared some of them, where this directory's export record knows (sorted). */
  readonly files: readonly string[];
  /** How many of them no record ties to a file (an owner mark keeps a rule's name, not its file). */
  readonly files_unknown: number;
  /** The rule names their owner marks keep (sorted, unique). */
  readonly names: readonly string[];
}

/** An exported unmanaged object no longer declared (see `Plan.left_unmanaged`). */
export interface PlanLeftUnmanaged {
  readonly kind: ObjectClass;
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
  readonly kind: ObjectClass;
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
export type PlanBody = Omit<PlanDocument, 'checksum' | 'desired_digest' | 'live_digest' | 'impact_checksum'>;

/** The plan as a versioned document: exactly what `--format json` prints and `apply --plan FILE` reads back. */
export interface PlanDocument {
  readonly format_version: typeof PLAN_FORMAT_VERSION;
  readonly owner: string;
  /** Present when updates in place were turned off (`--rule-updates replace`); `apply --plan` plans the same way. */
  readonly rule_updates?: 'replace';
  /** The IP-list API the plan read and will write through, where it is not v4 (the default). */
  readonly ip_api?: IpApiName;
  /** Present when unmanaged objects equal to declarations are adopted (`--adopt`); `apply --plan` plans the same way. */
  readonly adopt?: true;
  /** Present with `--target`: the declarations the plan is narrowed to, and how many changes of the full plan it leaves out. */
  readonly target?: PlanTarget;
  readonly summary: PlanSummary;
  /** API calls the changes take (rule deletes of one client share calls of up to 1000 ids). */
  readonly api_calls: number;
  readonly safety: PlanSafety;
  /** Present when some are: the owned objects deleted because these policies do not declare them. */
  readonly undeclared?: PlanUndeclared;
  /**
   * Hash128 (32 hex digits, codec.ts `planChecksum`) of `changes` as JSON
   * values, whatever their members' order, without their impacts; with
   * `--impact-limit`, of the limit too: a file whose limit was removed or
   * raised is a modified file.
   */
  readonly checksum: string;
  /** sha256 (hex) over the policies' objects, whatever their order or place (digest.ts); `apply --plan` compares it. */
  readonly desired_digest: string;
  /** The same over the live objects listed, with their ids and owners. */
  readonly live_digest: string;
  /**
   * With `--impact`: Hash128 of `impact` and every change's impact (codec.ts
   * `impactChecksum`). Checked apart from `checksum`, which names the changes:
   * a reader marks an impact that does not match it (`impact.unverified`).
   */
  readonly impact_checksum?: string;
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
