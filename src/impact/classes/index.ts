/**
 * The impact's side of each object class, by the `kind` its changes carry
 * (see plan/classes). A new class adds its module here and one entry below.
 */
import type { Change, ChangeOf } from '../../model/change.js';
import type { IpEntry } from '../../model/ip.js';
import type { ObjectClass } from '../../model/object-class.js';
import type { Rule } from '../../model/rule.js';
import { groupByClass } from '../../plan/classes/index.js';
import type { ImpactClass } from './class.js';
import { IP_IMPACT } from './ip.js';
import { RULE_IMPACT } from './rules.js';

/** The objects of each class as the impact reads them: a rule, an IP entry, declared or listed. */
export interface ImpactObjects {
  readonly rule: Rule;
  readonly ip: IpEntry;
}

const IMPACT_CLASSES: { readonly [K in ObjectClass]: ImpactClass<ChangeOf<K>, ImpactObjects[K]> } = {
  rule: RULE_IMPACT,
  ip: IP_IMPACT,
};

export function impactClass<K extends ObjectClass>(kind: K): ImpactClass<ChangeOf<K>, ImpactObjects[K]> {
  return IMPACT_CLASSES[kind];
}

/** The class of a change, found by its `kind`. */
export function impactClassOf(change: Change): ImpactClass<Change, unknown> {
  // Sound: the table is keyed by the kind each class's changes carry, so `change` is of the class returned.
  return IMPACT_CLASSES[change.kind] as unknown as ImpactClass<Change, unknown>;
}

/** The changes of one class, in plan order. */
export function changesOf<K extends ObjectClass>(changes: readonly Change[], kind: K): ChangeOf<K>[] {
  return (groupByClass(changes).get(kind) ?? []) as ChangeOf<K>[];
}
