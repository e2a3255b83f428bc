/**
 * The plan document's codec: a plan (model changes) to the versioned JSON that
 * `--format json`, `--out`, `show`, `ci` and `apply --plan` read and write.
 * There is no way back: `apply --plan` plans again and compares documents, so
 * a saved plan is never turned into changes to apply.
 */
import type { Change } from '../model/change.js';
import { planClassOf } from './classes/index.js';
import { Hash128 } from './hash128.js';
import { PLAN_FORMAT_VERSION, type ChangeImpact, type Plan, type PlanChange, type PlanDocument } from './types.js';
import { once } from './once.js';

export interface EncodeOptions {
  /**
   * Compute the live digest now: a document kept after its run (the daemon's
   * `/plan`) then holds no live state. The desired digest stays lazy: the
   * daemon keeps those policies for its next cycle anyway (after an edit, the
   * document holds the ones before it until the next cycle ends, most of their
   * objects shared through the policy cache), and hashing them every cycle
   * (120 ms at 10k rules + 50k IP values) is wasted while nobody reads `/plan`
   * or the status page.
   */
  readonly liveDigestNow?: boolean;
}

export function encodePlan(plan: Plan, options: EncodeOptions = {}): PlanDocument {
  // Reading it computes it (plan.ts), and lets the plan drop the live state it comes from.
  if (options.liveDigestNow) void plan.live_digest;
  const bare = plan.changes.map(encodeChange);
  // The impact is evidence read at one moment, not what is applied: the checksum leaves it out.
  const checksum = once(() => planChecksum(bare));
  const impacts = plan.impacts;
  const changes = impacts ? plan.changes.map((change, i) => withImpact(bare[i] as PlanChange, impacts.get(change))) : bare;
  // Keys in the document's order (pinned plans compare byte for byte).
  return {
    format_version: PLAN_FORMAT_VERSION,
    owner: plan.owner,
    ...(plan.rule_updates ? { rule_updates: plan.rule_updates } : {}),
    ...(plan.adopt ? { adopt: plan.adopt } : {}),
    ...(plan.target ? { target: plan.target } : {}),
    summary: plan.summary,
    api_calls: plan.api_calls,
    safety: plan.safety,
    // Computed when first read (a saved or JSON plan, the markdown footer): the text plan never reads it.
    get checksum() {
      return checksum();
    },
    // The plan computes these when first read too (plan.ts).
    get desired_digest() {
      return plan.desired_digest;
    },
    get live_digest() {
      return plan.live_digest;
    },
    changes,
    notes: plan.notes,
    unmanaged: plan.unmanaged,
    left_unmanaged: plan.left_unmanaged,
    ...(plan.kept ? { kept: plan.kept } : {}),
    ...(plan.conflicts ? { conflicts: plan.conflicts } : {}),
    ...(plan.impact ? { impact: plan.impact } : {}),
  };
}

function withImpact(change: PlanChange, impact: ChangeImpact | undefined): PlanChange {
  return impact ? { ...change, impact } : change;
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
export function planChecksum(changes: readonly PlanChange[]): string {
  const hash = new Hash128();
  hash.value(changes.map(withoutImpact));
  return hash.finish().hex();
}
