/** A plan as a daemon cycle shows it, from a document (or a stand-in for one) a test made. */
import type { ShownPlan } from '../../src/reconcile/outcome.js';
import type { PlanBody, PlanDocument } from '../../src/plan/types.js';

export function shownPlan(document: object): ShownPlan {
  return { body: document as PlanBody, document: () => document as PlanDocument };
}
