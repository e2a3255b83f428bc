/** Audit's side of each object class, by the `kind` its changes carry (see plan/classes). */
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { Change, ChangeOf } from '../../model/change.js';
import type { AuditClass, BuiltInAuditClass } from './class.js';
import { IP_AUDIT } from './ip.js';
import { RULE_AUDIT } from './rules.js';

const BUILT_IN: { readonly [K in ObjectClass]: BuiltInAuditClass<ChangeOf<K>, ObjectClassModels[K]['desired']> } = {
  rule: RULE_AUDIT,
  ip: IP_AUDIT,
};

const AUDIT_CLASSES = new ClassTable<AuditClass>('audit side', BUILT_IN);

/** A class's audit side: why a write of it is made, what its record lists, and the capabilities it has (what the converged memory keeps, say). */
export function registerAuditClass<C>(kind: string, auditClass: AuditClass<C>): () => void {
  // Sound: the table hands the class only changes and objects of its own `kind`.
  return AUDIT_CLASSES.register(kind, auditClass as unknown as AuditClass);
}

/** Audit's class of a change, found by its `kind`. */
export function auditClassOf(change: Change): AuditClass {
  return AUDIT_CLASSES.get(change.kind);
}

/** Audit's side of a class, by name. */
export function auditClass(kind: ObjectClass): AuditClass {
  return AUDIT_CLASSES.get(kind);
}
