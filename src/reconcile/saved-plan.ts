/**
 * `apply --plan FILE`: reads a saved plan and checks it still describes what
 * it would do. A plan is refused when it was edited (checksum), or when the
 * policies or the live state changed since it was made (digests).
 */
import { readFile } from 'node:fs/promises';
import { StalePlanError, UsageError } from '../errors.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { digestDesired, digestLive, planChecksum } from '../plan/index.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../plan/types.js';

export async function readSavedPlan(file: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the plan file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { cause: error });
  }
  let plan: Plan;
  try {
    plan = JSON.parse(text) as Plan;
  } catch (error) {
    throw new UsageError(`${file} is not a plan: it is not JSON`, { cause: error });
  }
  if (!isPlanShaped(plan)) {
    throw new UsageError(`${file} is not a Rampart plan of format_version ${PLAN_FORMAT_VERSION}`);
  }
  if (planChecksum(plan.changes) !== plan.checksum) {
    throw new StalePlanError(`${file} was modified after it was made (checksum mismatch); make a new plan`);
  }
  return plan;
}

/** Throws unless the saved plan was made from exactly this desired and live state. */
export function checkPlanIsCurrent(plan: Plan, desired: DesiredState, live: LiveState, owner: string): void {
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

/** The parts of a plan `apply` relies on; the checksum covers `changes` only. */
function isPlanShaped(value: unknown): value is Plan {
  if (!value || typeof value !== 'object') return false;
  const plan = value as Partial<Plan>;
  return plan.format_version === PLAN_FORMAT_VERSION
    && Array.isArray(plan.changes)
    && typeof plan.owner === 'string'
    && typeof plan.checksum === 'string'
    && typeof plan.desired_digest === 'string'
    && typeof plan.live_digest === 'string'
    && typeof plan.safety === 'object' && plan.safety !== null
    && typeof plan.summary === 'object' && plan.summary !== null;
}
