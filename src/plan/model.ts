/**
 * The plan as Rampart works with it, from the diff to the audit record: the
 * changes as model values (model/change.ts), the figures in the code's own
 * names, and the expensive parts as memoised methods, computed when first
 * asked (a text plan, an apply from the command line and a daemon cycle
 * never ask for the digests). `encodePlan` (codec.ts) builds the document
 * that `--format json`, `--out`, `show`, `ci` and `apply --plan` read and
 * write (types.ts), as plain data.
 */
import type { Change } from '../model/change.js';
import type { PlanConflict, PlanKept, PlanLeftUnmanaged, PlanNote, PlanSummary, PlanUnmanaged } from './types.js';
import type { ImpactPath, ImpactEffect } from './change-document.js';

import type { IpApiName } from '../model/ip-list-apis.js';

export interface Plan {
  readonly owner: string;
  /** Updates in place turned off (`--rule-updates replace`): `apply --plan` plans the same way. */
  readonly ruleUpdates?: 'replace';
  /** Unmanaged objects equal to declarations are adopted (`--adopt`). */
  readonly adopt?: true;
  /** The IP-list API read and written, where it is not the default (v4). */
  readonly ipApi?: IpApiName;
  /** `--target`: the declarations the plan is narrowed to. */
  readonly target?: Target;
  readonly summary: PlanSummary;
  /** API calls the changes take (rule deletes of one client share calls). */
  readonly apiCalls: number;
  readonly safety: Safety;
  readonly changes: readonly Change[];
  readonly notes: readonly PlanNote[];
  /** Declarations satisfied by unmanaged objects and left so (without `--adopt`). */
  readonly unmanaged: readonly PlanUnmanaged[];
  /** Objects an export wrote into the policies, unmanaged, that no declaration matches any more. */
  readonly leftUnmanaged: readonly PlanLeftUnmanaged[];
  /** Owned rules no longer declared that a client cannot delete. */
  readonly kept?: readonly PlanKept[];
  /** Where this directory's export record says objects were declared (undeclared.ts), to name the files of undeclared deletes. */
  readonly exportedFiles?: ReadonlyMap<string, string>;
  /** Unmanaged objects that block a declaration (never in a plan that is applied). */
  readonly conflicts?: readonly PlanConflict[];
  /** With `--impact`: the evidence's window and how much was read. */
  readonly impact?: ImpactSummary;
  /** With `--impact`: each evaluated change's impact (src/impact/). */
  readonly impacts?: ReadonlyMap<Change, Impact>;
  /** sha256 (hex) over the policies' objects, whatever their order or place (digest.ts); computed once, when first asked. */
  desiredDigest(): string;
  /** The same over the live objects listed, with their ids and owners. Once computed, the plan no longer holds the live state. */
  liveDigest(): string;
}

/** `--target`: the policy files and rule names a plan is narrowed to (plan/target.ts). */
export interface Target {
  readonly files: readonly string[];
  readonly names: readonly string[];
  /** Changes (or parts of them) of the full plan left out. */
  readonly leftOut: number;
}

/** The guard's verdict with the default or configured limits, without `--force` (safety.ts). */
export interface Safety {
  readonly ok: boolean;
  /** Objects deleted as not declared, and values `--adopt` moves to another list. */
  readonly deleteCount: number;
  /** Present when some are: how many of `deleteCount` are moves made by `--adopt`. */
  readonly moveCount?: number;
  /** Objects carrying our owner mark before the plan. */
  readonly ownedCount: number;
  readonly share: number;
  readonly threshold: number;
  readonly minOwned: number;
}

/** What a change would have done to the requests the service recorded in the window (the document's `ChangeImpact` says each effect). */
export interface Impact {
  readonly effect: ImpactEffect;
  readonly evaluable: boolean;
  /** Why the change is not evaluable, or what bounds its count. */
  readonly reason?: string;
  /** Distinct requests. */
  readonly requests: number;
  /** Distinct source addresses of those requests. */
  readonly ips: number;
  /** The paths with the most requests, most first (at most five). */
  readonly paths: readonly ImpactPath[];
  /** Distinct paths of those requests. */
  readonly pathCount: number;
  /** A few of the requests, for `rampart tune --request` or the console. */
  readonly sampleRequestIds: readonly string[];
  /** The count is a floor: the rule also acts on clean traffic, which the service does not record. */
  readonly lowerBound?: true;
}

/** The impact's figures for the whole plan. */
export interface ImpactSummary {
  readonly windowSeconds: number;
  /** Hits listed, over every listing call. */
  readonly hitsRead: number;
  readonly listings: number;
  /** `false` when a listing failed or was cut short: counts are then "at least", and `reason` says why. */
  readonly complete: boolean;
  readonly reason?: string;
  /** Changes whose effect hits cannot show. */
  readonly notEvaluable: number;
  readonly limit?: number;
  /** Changes past `--impact-limit`. */
  readonly overLimit?: number;
  /** The model's verdicts for the live configuration against the service's recorded ones (impact/agreement.ts). */
  readonly agreement?: ImpactAgreement;
  /** `false` when the agreement is below its threshold: `--impact-limit` treats the impact as incomplete. */
  readonly reliable?: boolean;
  /** The whole plan against the live configuration, for what filtering modes and IP lists decide (impact/plan-total.ts). */
  readonly total?: ImpactTotal;
}

export interface ImpactTotal {
  readonly newlyBlocked: { readonly requests: number; readonly ips: number };
  readonly noLongerBlocked: { readonly requests: number; readonly ips: number };
}

export interface ImpactAgreement {
  /** Requests recorded since the configuration last changed that a live mode rule governs: the model could give a verdict. */
  readonly checked: number;
  readonly agree: number;
  /** Request ids of some that disagree. */
  readonly samples: readonly string[];
}
