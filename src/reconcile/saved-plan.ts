/**
 * `apply --plan FILE`: reads a saved plan and confirms it still describes what
 * it would do. The file is never trusted: anyone who can touch the artifact
 * between CI jobs can recompute its checksum. So the plan is computed again
 * from the fresh policies and live state (the digests show they are what the
 * plan was made from) and applied only if its changes are the file's; the
 * recomputed plan, not the file, then supplies every figure (owned count,
 * safety). A plan is refused when it was edited (checksum, or changes that the
 * inputs do not produce), or when the policies or the live state changed since.
 */
import { readFile } from 'node:fs/promises';
import { FileError, PlanMismatchError, StalePlanError, UsageError } from '../errors.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { buildPlan, digestDesired, digestLive, encodeChanges, planChecksum, targetPlan, withoutImpact, type Plan, type SafetyLimits } from '../plan/index.js';
import { impactChecksum, impactLimitOf } from '../plan/codec.js';
import { sameJson } from '../plan/canonical.js';
import { PLAN_FORMAT_VERSION, type PlanDocument } from '../plan/types.js';
import type { PlanSettings } from './settings.js';

export async function readSavedPlan(file: string): Promise<PlanDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError(`cannot read the plan file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { cause: error });
  }
  let plan: PlanDocument;
  try {
    plan = JSON.parse(text) as PlanDocument;
  } catch (error) {
    throw new UsageError(`${file} is not a plan: it is not JSON`, { cause: error });
  }
  checkFormat(plan, file);
  if (!isPlanShaped(plan)) {
    throw new UsageError(`${file} is not a Rampart plan of format_version ${PLAN_FORMAT_VERSION}`);
  }
  if (planChecksum(plan.changes, impactLimitOf(plan.impact)) !== plan.checksum) {
    throw new StalePlanError(`${file} was modified after it was made (checksum mismatch); make a new plan`);
  }
  return withImpactChecked(plan);
}

/**
 * The impact marked when it does not match its own checksum: evidence edited
 * after the plan was made is shown as such, never as what the service saw.
 * Its limit is bound by `checksum` and holds either way.
 */
function withImpactChecked(plan: PlanDocument): PlanDocument {
  if (!plan.impact || (plan.impact_checksum !== undefined && impactChecksum(plan) === plan.impact_checksum)) return plan;
  const why = plan.impact_checksum === undefined
    ? 'the plan carries no impact checksum, so its figures cannot be checked'
    : 'it does not match its checksum: it was changed after the plan was made';
  return { ...plan, impact: { ...plan.impact, unverified: why } };
}

/**
 * What shaped the saved plan besides its owner (which must be the command's):
 * recorded on it, so the plan is made again exactly as it was reviewed,
 * whatever the command's own flags say.
 */
export function planSettingsOf(plan: PlanDocument): Pick<PlanSettings, 'adopt' | 'ruleUpdates' | 'target'> {
  return {
    adopt: plan.adopt === true, ruleUpdates: plan.rule_updates ?? 'update',
    ...(plan.target ? { target: { files: plan.target.files, names: plan.target.names } } : {}),
  };
}

export interface ConfirmOptions {
  readonly file: string;
  /** The command's `--owner`. */
  readonly owner: string;
  /** The command's limits: the verdict is the command's, not the file's. */
  readonly limits: SafetyLimits;
}

/**
 * The plan to apply: `saved` computed again from `desired` and `listed` (the
 * listing alone, as `plan` made it). Throws unless it was made from exactly
 * these inputs and its changes are the file's.
 */
export function confirmSavedPlan(saved: PlanDocument, desired: DesiredState, listed: LiveState, options: ConfirmOptions): Plan {
  checkPlanIsCurrent(saved, desired, listed, options.owner);
  const settings = planSettingsOf(saved);
  const full = buildPlan(desired, listed, { owner: saved.owner, ...options.limits, ...settings });
  const recomputed = settings.target ? targetPlan(full, settings.target).plan : full;
  // Compared as documents: the file is the document the reviewer read.
  if (!sameJson(encodeChanges({ changes: recomputed.changes }), saved.changes.map(withoutImpact))) {
    throw new PlanMismatchError(
      `${options.file} holds changes that its policies and live state do not produce (the file was edited); nothing is applied, make a new plan`,
    );
  }
  return recomputed;
}

/** Throws unless the saved plan was made from exactly this desired and live state. */
function checkPlanIsCurrent(plan: PlanDocument, desired: DesiredState, live: LiveState, owner: string): void {
  if (plan.owner !== owner) {
    throw new StalePlanError(`the plan was made for owner "${plan.owner}", not "${owner}"`);
  }
  if (digestDesired(desired) !== plan.desired_digest) {
    throw new StalePlanError('the policies changed since the plan was made; run plan again');
  }
  if (digestLive(live) !== plan.live_digest) {
    throw new StalePlanError('the live state changed since the plan was made (someone or something wrote to the account); run plan again');
  }
}

/**
 * Refuses a plan of another format by name: digests and checksum are computed
 * differently in each, so an older plan would only fail as "modified". Saved
 * plans live from a pull request to its merge: planning again is the remedy.
 */
function checkFormat(value: unknown, file: string): void {
  if (!value || typeof value !== 'object') return;
  const version = (value as { format_version?: unknown }).format_version;
  if (typeof version !== 'number' || version === PLAN_FORMAT_VERSION) return;
  if (version < PLAN_FORMAT_VERSION) {
    throw new StalePlanError(
      `${file} was made by an older Rampart (plan format ${version}; this one reads format ${PLAN_FORMAT_VERSION}): make a new plan`,
    );
  }
  throw new UsageError(`${file} was made by a newer Rampart (plan format ${version}; this one reads format ${PLAN_FORMAT_VERSION}): use that version`);
}

/** The parts of a saved plan read before it is confirmed; its figures are recomputed. */
function isPlanShaped(value: unknown): value is PlanDocument {
  if (!value || typeof value !== 'object') return false;
  const plan = value as Partial<PlanDocument>;
  return plan.format_version === PLAN_FORMAT_VERSION
    && Array.isArray(plan.changes)
    && typeof plan.owner === 'string'
    && typeof plan.checksum === 'string'
    && typeof plan.desired_digest === 'string'
    && typeof plan.live_digest === 'string'
    && typeof plan.safety === 'object' && plan.safety !== null
    && typeof plan.summary === 'object' && plan.summary !== null;
}
