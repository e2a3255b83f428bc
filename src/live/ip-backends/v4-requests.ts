/**
 * IP entries → the IP-list API's create body (`POST /v4/ip_rules`), with
 * Rampart's owner mark in the reason. The inverse of
 * src/live/normalize-ip-rule.ts.
 */
import type { ApiIpRuleCreate } from '../../api/records.js';
import { InternalError } from '../../errors.js';
import { ipFingerprint } from '../../model/ip-fingerprint.js';
import type { IpEntry } from '../../model/ip.js';
import { withOwnerMark } from '../../model/ownership.js';

/** One create for entries sharing list, type, pools, expiry and reason (one value for ip_range). */
export function ipRuleCreateRequest(entries: readonly IpEntry[], owner: string, force: boolean): ApiIpRuleCreate {
  const [first] = entries;
  if (!first) throw new InternalError('an IP create needs at least one entry');
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
