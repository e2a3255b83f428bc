/**
 * The object classes as the policy language declares them, by the class's
 * name (model/object-class.ts). A new class adds its module here and one entry below.
 */
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { PolicyClass } from './class.js';
import { IP_POLICY } from './ip.js';
import { RULE_POLICY } from './rules.js';

const POLICY_CLASSES: { readonly [K in ObjectClass]: PolicyClass<ObjectClassModels[K]['desired']> } = {
  rule: RULE_POLICY,
  ip: IP_POLICY,
};

/** The class by name. */
export function policyClass<K extends ObjectClass>(kind: K): PolicyClass<ObjectClassModels[K]['desired']> {
  return POLICY_CLASSES[kind];
}
