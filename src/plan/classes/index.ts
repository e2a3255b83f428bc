/**
 * The object classes, by the `kind` their changes carry. A third class is one
 * module here and one entry below (and its model types, reader and writer).
 */
import type { Change, ChangeOf } from '../../model/change.js';
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { PlanChange } from '../types.js';
import type { PlanClass } from './class.js';
import { IP_ENTRIES } from './ip.js';
import { RULES } from './rules.js';

export type { PlanClass } from './class.js';

const PLAN_CLASSES: {
  readonly [K in ObjectClass]: PlanClass<ChangeOf<K>, Extract<PlanChange, { kind: K }>, ObjectClassModels[K]['desired'], ObjectClassModels[K]['live']>
} = {
  rule: RULES,
  ip: IP_ENTRIES,
};

/** Every class, in plan order. */
export const CLASSES_IN_PLAN_ORDER: readonly ObjectClass[] = (Object.keys(PLAN_CLASSES) as ObjectClass[])
  .sort((a, b) => PLAN_CLASSES[a].order - PLAN_CLASSES[b].order);

/** The class of a change (model or plan JSON), found by its `kind`. */
export function planClassOf(change: Change | PlanChange): PlanClass {
  // Sound: the table is keyed by the kind each class's changes carry, so `change` is of the class returned.
  return PLAN_CLASSES[change.kind] as unknown as PlanClass;
}

/** The class by name (plan JSON's `kind`). */
export function planClass(kind: ObjectClass): PlanClass {
  return PLAN_CLASSES[kind] as unknown as PlanClass;
}

/** Changes grouped by class, each group in the order given. */
export function groupByClass<C extends { readonly kind: ObjectClass }>(changes: readonly C[]): Map<ObjectClass, C[]> {
  const groups = new Map<ObjectClass, C[]>();
  for (const change of changes) {
    const group = groups.get(change.kind);
    if (group) group.push(change);
    else groups.set(change.kind, [change]);
  }
  return groups;
}
