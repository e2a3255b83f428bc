/** The applier's side of each object class, by the `kind` its changes carry (see plan/classes). */
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass } from '../../model/object-class.js';
import type { Change, ChangeOf } from '../../model/change.js';
import type { ApplyClass, BuiltInApplyClass } from './class.js';
import { IP_WRITES } from './ip.js';
import { RULE_WRITES } from './rules.js';

const BUILT_IN: { readonly [K in ObjectClass]: BuiltInApplyClass<ChangeOf<K>> } = {
  rule: RULE_WRITES,
  ip: IP_WRITES,
};

const APPLY_CLASSES = new ClassTable<ApplyClass>('apply side', BUILT_IN);

/** A class's apply side: the calls behind its changes, and how the apply checks the listings after them. */
export function registerApplyClass<C>(kind: string, applyClass: ApplyClass<C>): () => void {
  // Sound: the table hands the class only changes of its own `kind`.
  return APPLY_CLASSES.register(kind, applyClass as unknown as ApplyClass);
}

/** The applier's class of a change, found by its `kind`. */
export function applyClassOf(change: Change): ApplyClass {
  return APPLY_CLASSES.get(change.kind);
}

export function applyClass(kind: ObjectClass): ApplyClass {
  return APPLY_CLASSES.get(kind);
}
