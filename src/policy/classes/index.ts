/**
 * The object classes as the policy language declares them, by the class's
 * name (model/object-class.ts). A new built-in class adds its module here and
 * one entry below; a class defined elsewhere registers its side.
 */
import { ClassTable } from '../../model/class-table.js';
import type { ObjectClass, ObjectClassModels } from '../../model/object-class.js';
import type { PolicyClass } from './class.js';
import { IP_POLICY } from './ip.js';
import { RULE_POLICY } from './rules.js';

const BUILT_IN: { readonly [K in ObjectClass]: PolicyClass<ObjectClassModels[K]['desired']> } = {
  rule: RULE_POLICY,
  ip: IP_POLICY,
};

const POLICY_CLASSES = new ClassTable<PolicyClass<unknown>>('policy side', BUILT_IN);

/** A class the policy files declare: how a document's part compiles into its desired objects. */
export function registerPolicyClass<D>(kind: string, policyClass: PolicyClass<D>): () => void {
  // Sound: the table hands the class only objects it compiled.
  return POLICY_CLASSES.register(kind, policyClass as PolicyClass<unknown>);
}

/** A class the policy language has no words for declares nothing there: its objects, if any, come from elsewhere. */
const DECLARES_NOTHING: PolicyClass<never> = { compile: () => [], sort: (objects) => [...objects], conflicts: () => [] };

/** The class by name. */
export function policyClass<K extends ObjectClass>(kind: K): PolicyClass<ObjectClassModels[K]['desired']> {
  // Sound: the table holds each class's side under its name.
  return POLICY_CLASSES.has(kind) ? POLICY_CLASSES.get(kind) as PolicyClass<ObjectClassModels[K]['desired']> : DECLARES_NOTHING;
}
