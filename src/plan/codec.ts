/**
 * The plan document's codec: a plan (model.ts) to the versioned JSON that
 * `--format json`, `--out`, `show`, `ci` and `apply --plan` read and write,
 * built as plain data: the model's names become the document's.
 * There is no way back: `apply --plan` plans again and compares documents, so
 * a saved plan is never turned into changes to apply.
 */
import type { Change } from '../model/change.js';
import { planClassOf } from './classes/index.js';
import { Hash128 } from './hash128.js';
import type { Impact, ImpactSummary, Plan, Safety, Target } from './model.js';
import { PLAN_FORMAT_VERSION, type PlanBody, type PlanChange, type PlanDocument, type PlanImpact, type PlanSafety, type PlanTarget, type PlanUndeclared } from './types.js';
import { undeclaredOf } from './undeclared.js';
import type { ChangeImpact } from './change-document.js';

/**
 * The whole document, plain data: the checksum and both digests computed now.
 * For JSON, markdown, a saved plan and the daemon's `/plan`.
 */
export function encodePlan(plan: Plan): PlanDocument {
  return withFigures(encodePlanBody(plan), plan);
}

/** The whole document from its body, already encoded, and the plan's digests. */
export function withFigures(body: PlanBody, plan: Pick<Plan, 'desiredDigest' | 'liveDigest'>): PlanDocument {
  // Keys in the document's order (pinned plans compare byte for byte).
  const { format_version, owner, rule_updates, ip_api, adopt, target, summary, api_calls, safety, ...rest } = body;
  return {
    format_version, owner,
    ...(rule_updates ? { rule_updates } : {}),
    ...(ip_api ? { ip_api } : {}),
    ...(adopt ? { adopt } : {}),
    ...(target ? { target } : {}),
    summary, api_calls, safety,
    checksum: planChecksum(body.changes, impactLimitOf(body.impact)),
    desired_digest: plan.desiredDigest(),
    live_digest: plan.liveDigest(),
    ...(body.impact ? { impact_checksum: impactChecksum(body) } : {}),
    ...rest,
  };
}

/**
 * The document without its checksum and digests, plain data: what a text plan
 * and the status page show, at no cost of hashing the policies, the live state
 * or the changes.
 */
export function encodePlanBody(plan: Plan): PlanBody {
  const changes = encodeChanges(plan);
  return {
    format_version: PLAN_FORMAT_VERSION,
    owner: plan.owner,
    ...(plan.ruleUpdates ? { rule_updates: plan.ruleUpdates } : {}),
    ...(plan.ipApi ? { ip_api: plan.ipApi } : {}),
    ...(plan.adopt ? { adopt: plan.adopt } : {}),
    ...(plan.target ? { target: encodeTarget(plan.target) } : {}),
    summary: plan.summary,
    api_calls: plan.apiCalls,
    safety: encodeSafety(plan.safety),
    ...withUndeclared(plan),
    changes,
    notes: plan.notes,
    unmanaged: plan.unmanaged,
    left_unmanaged: plan.leftUnmanaged,
    ...(plan.kept ? { kept: plan.kept } : {}),
    ...(plan.conflicts ? { conflicts: plan.conflicts } : {}),
    ...(plan.impact ? { impact: encodeImpactSummary(plan.impact) } : {}),
  };
}

/** The plan's changes as the document carries them, each with its impact when the plan has one. */
export function encodeChanges(plan: Pick<Plan, 'changes' | 'impacts'>): PlanChange[] {
  const { impacts } = plan;
  return plan.changes.map((change) => {
    const encoded = encodeChange(change);
    const impact = impacts?.get(change);
    return impact ? { ...encoded, impact: encodeImpact(impact) } : encoded;
  });
}

/** The checksum of a plan's document (apply's report names the plan it ran). */
export function checksumOf(plan: Pick<Plan, 'changes' | 'impact'>): string {
  return planChecksum(plan.changes.map(encodeChange), plan.impact?.limit === undefined ? undefined : { limit: plan.impact.limit, windowSeconds: plan.impact.windowSeconds });
}

/** `--impact-limit` and the window it counts over: what `apply --plan` enforces from a saved plan. */
export interface ImpactLimit {
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The limit a document's impact carries, if any. */
export function impactLimitOf(impact: PlanImpact | undefined): ImpactLimit | undefined {
  return impact?.limit === undefined ? undefined : { limit: impact.limit, windowSeconds: impact.window_seconds };
}

/** `undeclared`, computed from the changes as they are now (a target or the churn breaker narrows them). */
function withUndeclared(plan: Plan): { undeclared?: PlanUndeclared } {
  const undeclared = undeclaredOf(plan.changes, plan.exportedFiles ?? new Map<string, string>());
  return undeclared ? { undeclared } : {};
}

function encodeTarget(target: Target): PlanTarget {
  return { files: target.files, names: target.names, left_out: target.leftOut };
}

function encodeSafety(safety: Safety): PlanSafety {
  return {
    ok: safety.ok,
    delete_count: safety.deleteCount,
    ...(safety.moveCount !== undefined ? { move_count: safety.moveCount } : {}),
    owned_count: safety.ownedCount,
    share: safety.share,
    threshold: safety.threshold,
    min_owned: safety.minOwned,
  };
}

function encodeImpact(impact: Impact): ChangeImpact {
  return {
    effect: impact.effect,
    evaluable: impact.evaluable,
    ...(impact.reason !== undefined ? { reason: impact.reason } : {}),
    requests: impact.requests,
    ips: impact.ips,
    paths: impact.paths,
    path_count: impact.pathCount,
    sample_request_ids: impact.sampleRequestIds,
    ...(impact.lowerBound ? { lower_bound: true } : {}),
  };
}

function encodeImpactSummary(impact: ImpactSummary): PlanImpact {
  return {
    window_seconds: impact.windowSeconds,
    hits_read: impact.hitsRead,
    listings: impact.listings,
    complete: impact.complete,
    ...(impact.reason !== undefined ? { reason: impact.reason } : {}),
    not_evaluable: impact.notEvaluable,
    ...(impact.limit !== undefined ? { limit: impact.limit } : {}),
    ...(impact.overLimit !== undefined ? { over_limit: impact.overLimit } : {}),
    ...(impact.agreement !== undefined ? { agreement: { ...impact.agreement, samples: [...impact.agreement.samples] } } : {}),
    ...(impact.reliable !== undefined ? { reliable: impact.reliable } : {}),
    ...(impact.total !== undefined ? { total: { newly_blocked: { ...impact.total.newlyBlocked }, no_longer_blocked: { ...impact.total.noLongerBlocked } } } : {}),
  };
}

/** A document's change as the checksum and a saved plan's comparison see it: without its impact. */
export function withoutImpact(change: PlanChange): PlanChange {
  if (change.impact === undefined) return change;
  const { impact: _impact, ...rest } = change;
  return rest as PlanChange;
}

/** One change as the document carries it. */
export function encodeChange(change: Change): PlanChange {
  return planClassOf(change).toPlanChange(change);
}

/**
 * Hash128 of the document's changes as JSON values (object members by name,
 * so the file's key order does not count); `readSavedPlan` recomputes it from
 * the parsed file. It catches a file edited by hand or damaged on the way,
 * not forgery: anyone can recompute it, which is why `apply --plan` plans
 * again and compares the changes. No text is built: a large plan's changes
 * are tens of MB as JSON.
 */
export function planChecksum(changes: readonly PlanChange[], impactLimit?: ImpactLimit): string {
  const hash = new Hash128();
  const bare = changes.map(withoutImpact);
  // The limit and its window decide whether the plan is safe to apply: `apply --plan` enforces the file's, so they are bound here.
  hash.value(impactLimit === undefined ? bare : { changes: bare, impact_limit: impactLimit.limit, impact_window_seconds: impactLimit.windowSeconds });
  return hash.finish().hex();
}

/**
 * Hash128 of the impact as a document carries it: the plan's figures and each
 * change's, in order (null for a change without one). The evidence is not
 * part of `checksum` (a saved plan is confirmed by its changes, and `apply
 * --plan` reads the hits again), so it is checked apart: `show` and `ci
 * comment` mark an impact edited after the plan was made.
 */
export function impactChecksum(document: Pick<PlanBody, 'changes' | 'impact'>): string {
  const hash = new Hash128();
  const { unverified: _reader, ...impact } = document.impact ?? {};
  hash.value({ impact, changes: document.changes.map((change) => change.impact ?? null) });
  return hash.finish().hex();
}
