/**
 * The impact's side of each object class, by the `kind` its changes carry
 * (see plan/classes). A new class adds its module here and one entry below.
 */
import type { Change, ChangeOf } from '../../model/change.js';
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import { groupByClass } from '../../plan/classes/index.js';
import type { ImpactClass } from './class.js';
import { IP_IMPACT } from './ip.js';
import { RULE_IMPACT } from './rules.js';

/** The objects of each class as the impact reads them: a rule, an IP entry, declared or listed. */
export type ImpactObjects = { readonly [K in ObjectClass]: ObjectClassModels[K]['object'] };

const BUILT_IN: { readonly [K in ObjectClass]: ImpactClass<ChangeOf<K>, ImpactObjects[K]> } = {
  rule: RULE_IMPACT,
  ip: IP_IMPACT,
};

const IMPACT_CLASSES = new ClassTable<ImpactClass<Change, unknown>>('impact side', BUILT_IN);

/** A class's impact side: what its changes would have done to the traffic the hits show. A class may go without. */
export function registerImpactClass<C, O>(kind: string, impactClass: ImpactClass<C, O>): () => void {
  // Sound: the table hands the class only changes and objects of its own `kind`.
  return IMPACT_CLASSES.register(kind, impactClass as unknown as ImpactClass<Change, unknown>);
}

/** Whether a class has an impact side: a class without one is not evaluated, and its changes say so. */
export function hasImpactSide(kind: ObjectClass): boolean {
  return IMPACT_CLASSES.has(kind);
}

export function impactClass<K extends ObjectClass>(kind: K): ImpactClass<ChangeOf<K>, ImpactObjects[K]> {
  // Sound: the table holds each class's side under its name.
  return IMPACT_CLASSES.get(kind) as unknown as ImpactClass<ChangeOf<K>, ImpactObjects[K]>;
}

/** The class of a change, found by its `kind`. */
export function impactClassOf(change: Change): ImpactClass<Change, unknown> {
  return IMPACT_CLASSES.get(change.kind);
}

/** The changes of one class, in plan order. */
export function changesOf<K extends ObjectClass>(changes: readonly Change[], kind: K): ChangeOf<K>[] {
  return (groupByClass(changes).get(kind) ?? []) as ChangeOf<K>[];
}
