/** Plans as documents: what `--format json` prints, for tests that read changes as a reviewer sees them. */
import { encodePlan } from '../../src/plan/codec.js';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanDocument } from '../../src/plan/types.js';

export function planDocument(...args: Parameters<typeof buildPlan>): PlanDocument {
  return encodePlan(buildPlan(...args));
}
