/** The applier's side of each object class, by the `kind` its changes carry (see plan/classes). */
import type { ObjectClass } from '../../model/object-class.js';
import type { Change } from '../../model/change.js';
import type { ApplyClass } from './class.js';
import { IP_WRITES } from './ip.js';
import { RULE_WRITES } from './rules.js';

const APPLY_CLASSES: { readonly [K in ObjectClass]: ApplyClass<Extract<Change, { kind: K }>> } = {
  rule: RULE_WRITES,
  ip: IP_WRITES,
};

/** The applier's class of a change, found by its `kind`. */
export function applyClassOf(change: Change): ApplyClass {
  // Sound: the table is keyed by the kind each class's changes carry.
  return APPLY_CLASSES[change.kind] as unknown as ApplyClass;
}

export function applyClass(kind: ObjectClass): ApplyClass {
  return APPLY_CLASSES[kind] as unknown as ApplyClass;
}
