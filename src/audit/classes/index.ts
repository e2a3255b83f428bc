/** Audit's side of each object class, by the `kind` its changes carry (see plan/classes). */
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { Change, ChangeOf } from '../../model/change.js';
import type { AuditClass } from './class.js';
import { IP_AUDIT } from './ip.js';
import { RULE_AUDIT } from './rules.js';

const AUDIT_CLASSES: { readonly [K in ObjectClass]: AuditClass<ChangeOf<K>, ObjectClassModels[K]['desired']> } = {
  rule: RULE_AUDIT,
  ip: IP_AUDIT,
};

/** Audit's class of a change, found by its `kind`. */
export function auditClassOf(change: Change): AuditClass {
  // Sound: the table is keyed by the kind each class's changes carry.
  return AUDIT_CLASSES[change.kind] as unknown as AuditClass;
}

/** Audit's side of a class, by name. */
export function auditClass(kind: ObjectClass): AuditClass {
  // Sound: the table is keyed by the class each entry handles.
  return AUDIT_CLASSES[kind] as unknown as AuditClass;
}
