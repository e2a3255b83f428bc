/**
 * `--target FILE|NAME`: a plan narrowed to some declarations, as Terraform's
 * `-target` narrows one. It keeps the creates, updates and adoptions those
 * declarations write, and only the deletes they need: a rule a kept create
 * replaces, an IP object whose values a kept forced create moves out. Nothing
 * else is deleted, whatever the policies no longer declare: that waits for a
 * plan without `--target`.
 */
import type { Change } from '../model/change.js';
import type { Source } from '../model/source.js';
import { hasReplacements, hasTarget } from './classes/class.js';
import { planClassOf } from './classes/index.js';
import { restrictPlan } from './plan.js';
import type { Plan } from './model.js';

/** Declarations by file (paths as the loader names them) or by name (a rule's `name`). */
export interface Targets {
  readonly files: readonly string[];
  readonly names: readonly string[];
}

export function targeted(targets: Targets): (source: Source) => boolean {
  const files = new Set(targets.files);
  const names = new Set(targets.names);
  return (source) => files.has(source.file) || names.has(source.name);
}

export interface TargetedPlan {
  readonly plan: Plan;
  /** Changes (or parts of them) of the full plan the targets leave out. */
  readonly leftOut: number;
}

export function targetPlan(plan: Plan, targets: Targets): TargetedPlan {
  const declared = targeted(targets);
  const kept = new Map<Change, Change>();
  const needed = new Set<number>();
  for (const change of plan.changes) {
    const objectClass = planClassOf(change);
    // A class `--target` cannot narrow is left out of a targeted plan.
    const narrowed = hasTarget(objectClass) ? objectClass.declaredBy(change, declared) : undefined;
    if (!narrowed) continue;
    kept.set(change, narrowed);
    if (hasReplacements(objectClass)) for (const id of objectClass.takesOver(narrowed)) needed.add(id);
  }
  let leftOut = 0;
  const restricted = restrictPlan(plan, (change) => {
    const objectClass = planClassOf(change);
    const deleted = objectClass.deletedIds(change);
    const result = deleted.length > 0
      // A delete stays only for the objects a kept change takes over.
      ? objectClass.without(change, new Set(deleted.filter((id) => !needed.has(id))), new Set())
      : kept.get(change);
    if (result !== change) leftOut += 1;
    return result;
  });
  return { plan: { ...restricted, target: { files: [...targets.files], names: [...targets.names], leftOut } }, leftOut };
}
