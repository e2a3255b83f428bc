/** A rule's fingerprint and write key (fingerprint.ts says what they are for). */
import { fingerprintOf } from './fingerprint.js';
import { ruleContentKey, type Rule } from './rule.js';

const ruleFingerprints = new WeakMap<Rule, string>();

export function ruleFingerprint(rule: Rule): string {
  let fingerprint = ruleFingerprints.get(rule);
  if (fingerprint === undefined) {
    fingerprint = fingerprintOf(`rule ${ruleContentKey(rule)}`);
    ruleFingerprints.set(rule, fingerprint);
  }
  return fingerprint;
}

/**
 * What a write is recognized by in a listing before its id is known: the
 * fingerprint the mark carries (and, in a multi-value object, the value).
 */
export function ruleWriteKey(rule: Rule): string {
  return ruleFingerprint(rule);
}

/** The write key a listed object's mark carries, if it has a fingerprint. */
export function listedRuleWriteKey(rule: { readonly fingerprint?: string }): string | undefined {
  return rule.fingerprint;
}
