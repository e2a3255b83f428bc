/**
 * The object classes, by the `kind` their changes carry. A built-in class is
 * one module here and one entry below (and its model types, reader and
 * writer); a class defined elsewhere registers its side (model/class-table.ts).
 */
import type { Change, ChangeOf } from '../../model/change.js';
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { PlanChange } from '../types.js';
import type { BuiltInPlanClass, PlanClass } from './class.js';
import { IP_ENTRIES } from './ip.js';
import { RULES } from './rules.js';

export type { PlanClass } from './class.js';

const BUILT_IN: {
  readonly [K in ObjectClass]: BuiltInPlanClass<ChangeOf<K>, Extract<PlanChange, { kind: K }>, ObjectClassModels[K]['desired'], ObjectClassModels[K]['live']>
} = {
  rule: RULES,
  ip: IP_ENTRIES,
};

const PLAN_CLASSES = new ClassTable<PlanClass>('plan side', BUILT_IN);

/** A class's plan side: how its changes are ordered, counted and encoded, and the capabilities it has (its `keyed` diff, say). */
export function registerPlanClass<M, C, D, L>(kind: string, planClass: PlanClass<M, C, D, L>): () => void {
  // Sound: the table hands the class only changes and objects of its own `kind`.
  return PLAN_CLASSES.register(kind, planClass as unknown as PlanClass);
}

/** Every class, in plan order. */
export function classesInPlanOrder(): ObjectClass[] {
  return [...PLAN_CLASSES.kinds()].sort((a, b) => PLAN_CLASSES.get(a).order - PLAN_CLASSES.get(b).order);
}

/** The class of a change (model or plan JSON), found by its `kind`. */
export function planClassOf(change: Change | PlanChange): PlanClass {
  return PLAN_CLASSES.get(change.kind);
}

/** The class by name (plan JSON's `kind`). */
export function planClass(kind: ObjectClass): PlanClass {
  return PLAN_CLASSES.get(kind);
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
