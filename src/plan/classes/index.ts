/**
 * The object classes, by the `kind` their changes carry. A third class is one
 * module here and one entry below (and its model types, reader and writer).
 */
import type { Change } from '../../model/change.js';
import type { PlanChange } from '../types.js';
import type { PlanClass } from './class.js';
import { IP_ENTRIES } from './ip.js';
import { RULES } from './rules.js';

export type { PlanClass } from './class.js';
export type ObjectClassName = PlanChange['kind'];

const PLAN_CLASSES: { readonly [K in ObjectClassName]: PlanClass<Extract<Change, { kind: K }>, Extract<PlanChange, { kind: K }>> } = {
  rule: RULES,
  ip: IP_ENTRIES,
};

/** Every class, in plan order. */
export const OBJECT_CLASSES: readonly ObjectClassName[] = (Object.keys(PLAN_CLASSES) as ObjectClassName[])
  .sort((a, b) => PLAN_CLASSES[a].order - PLAN_CLASSES[b].order);

/** The class of a change (model or plan JSON), found by its `kind`. */
export function planClassOf(change: Change | PlanChange): PlanClass {
  // Sound: the table is keyed by the kind each class's changes carry, so `change` is of the class returned.
  return PLAN_CLASSES[change.kind] as unknown as PlanClass;
}

/** The class by name (plan JSON's `kind`). */
export function planClass(kind: ObjectClassName): PlanClass {
  return PLAN_CLASSES[kind] as unknown as PlanClass;
}

/** Changes grouped by class, each group in the order given. */
export function byClass<C extends { readonly kind: ObjectClassName }>(changes: readonly C[]): Map<ObjectClassName, C[]> {
  const groups = new Map<ObjectClassName, C[]>();
  for (const change of changes) {
    const group = groups.get(change.kind);
    if (group) group.push(change);
    else groups.set(change.kind, [change]);
  }
  return groups;
}
