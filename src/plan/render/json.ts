import type { PlanDocument } from '../types.js';

/**
 * The plan JSON: keys in the order `buildPlan` builds them (stable), two-space
 * indent, trailing newline. What `plan --out FILE` saves.
 */
export function renderJson(plan: PlanDocument): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
