/** A rule's part of the state digests (digest.ts): its content, and a listed rule's id and owner. */
import type { LiveRule, Rule } from '../../model/rule.js';
import type { Hash128 } from '../hash128.js';
import type { ClassDigest } from './class.js';

/** What `ruleContentKey` holds: identity, every field, the comment (none and empty alike). */
function hashRule(hash: Hash128, rule: Rule): Hash128 {
  hash.number(rule.client);
  hash.string(rule.kind);
  // Both readers sort conditions (`sortConditions`) when they make a rule: hashed in that order.
  hash.word(rule.conditions.length);
  for (const condition of rule.conditions) {
    hash.value(condition.point);
    hash.string(condition.type);
    hash.value(condition.value);
  }
  hash.value(rule.point);
  hash.value(rule.fields);
  hash.optionalString(rule.comment || undefined);
  return hash;
}

export const RULE_DIGEST: ClassDigest<Rule, LiveRule> = {
  label: 'rules',
  desired: (hash, rule) => hashRule(hash, rule),
  live: (hash, rule) => {
    hash.number(rule.id);
    hash.optionalString(rule.owner);
    return hashRule(hash, rule);
  },
};
