/**
 * The canonical model → the API's create bodies, with Rampart's owner mark.
 * The inverse of src/live/normalize-*.ts: what is created here reads back
 * (after the server's normalization) as the same canonical object.
 */
import type { ApiHintCreate, ApiIpRuleCreate } from '../api/records.js';
import { ipFingerprint, ruleFingerprint } from '../model/fingerprint.js';
import type { IpEntry } from '../model/ip.js';
import { withOwnerMark } from '../model/ownership.js';
import type { Rule } from '../model/rule.js';

/** `name`: the rule's name in the policies, kept in the mark. */
export function hintCreateRequest(rule: Rule, owner: string, name?: string): ApiHintCreate {
  return {
    clientid: rule.client,
    type: rule.type,
    action: rule.conditions.map((condition) =>
      condition.type === 'absent'
        ? { point: [...condition.point], type: condition.type }
        : { point: [...condition.point], type: condition.type, value: condition.value ?? '' },
    ),
    validated: false,
    ...(rule.type !== 'service_mode' ? { point: rule.point.map((point) => [...point]) } : {}),
    ...(rule.attackType !== undefined ? { attack_type: rule.attackType } : {}),
    ...(rule.regex !== undefined ? { regex: rule.regex } : {}),
    ...(rule.mode !== undefined ? { mode: rule.mode } : {}),
    // The server rejects an empty comment; the mark alone is never empty.
    comment: withOwnerMark(rule.comment, { owner, fingerprint: ruleFingerprint(rule), ...(name !== undefined ? { name } : {}) }),
    variativity_disabled: true,
  };
}

/** One create for entries sharing list, type, pools, expiry and reason (one value for ip_range). */
export function ipRuleCreateRequest(entries: readonly IpEntry[], owner: string, force: boolean): ApiIpRuleCreate {
  const [first] = entries;
  if (!first) throw new Error('an IP create needs at least one entry');
  const values = entries.map((entry) => entry.value);
  return {
    clientid: first.client,
    ip_rule: {
      list: first.list,
      rule_type: first.ruleType,
      ...(first.ruleType === 'ip_range' ? { subnet: values[0] } : { source_values: values }),
      pools: [...first.pools],
      expired_at: first.expiresAt,
      reason: withOwnerMark(first.reason, { owner, fingerprint: ipFingerprint(first) }),
    },
    force,
  };
}
