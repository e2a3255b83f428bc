/**
 * A listed hint → a LiveRule in the canonical model, or undefined for rule
 * types Rampart does not manage and for the service's own `system` rules
 * (those are never read further, never touched, never counted).
 */
import type { ApiHint } from '../api/records.js';
import { canonicalCondition, regroupPoints } from '../model/canonical.js';
import { readOwnerMark } from '../model/ownership.js';
import { type LiveRule, MANAGED_RULE_TYPES, type RuleType, sortConditions } from '../model/rule.js';

export function liveRuleFromHint(hint: ApiHint): LiveRule | undefined {
  if (hint.system === true || !(MANAGED_RULE_TYPES as readonly string[]).includes(hint.type)) return undefined;
  const type = hint.type as RuleType;
  const { text: comment, owner, fingerprint, name } = readOwnerMark(hint.comment);
  const conditions = sortConditions((hint.action ?? []).map((condition) => canonicalCondition(condition)));
  return {
    id: hint.id,
    client: hint.clientid,
    type,
    conditions,
    point: type === 'service_mode' ? [] : regroupPoints(hint.point ?? []),
    ...(type !== 'service_mode' && hint.attack_type ? { attackType: hint.attack_type } : {}),
    ...(type === 'regex' && hint.regex ? { regex: hint.regex } : {}),
    ...(type === 'service_mode' && hint.mode ? { mode: hint.mode } : {}),
    ...(comment !== undefined ? { comment } : {}),
    ...(owner !== undefined ? { owner } : {}),
    ...(fingerprint !== undefined ? { fingerprint } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}
