/**
 * A listed IP-list object → one LiveIpEntry per value it holds, whichever
 * granularity the server lists in (one object per value, or one per request).
 */
import type { ApiIpRule } from '../api/records.js';
import { canonicalCidr } from '../model/cidr.js';
import { type IpListName, type IpRuleType, IP_LISTS, IP_RULE_TYPES, type LiveIpEntry, NEVER_EXPIRES } from '../model/ip.js';
import { readOwnerMark } from '../model/ownership.js';

export function liveEntriesFromIpRule(object: ApiIpRule): LiveIpEntry[] {
  if (!(IP_LISTS as readonly string[]).includes(object.list)) return [];
  if (!(IP_RULE_TYPES as readonly string[]).includes(object.rule_type)) return [];
  const ruleType = object.rule_type as IpRuleType;
  const values = valuesOf(object, ruleType);
  const { text: reason, owner, fingerprint } = readOwnerMark(object.reason);
  const pools = [...new Set(object.pools?.length ? object.pools : [0])].sort((a, b) => a - b);
  const expiresAt = object.expired_at === null || object.expired_at === undefined ? NEVER_EXPIRES : Number(object.expired_at);
  return values.map((value) => ({
    id: object.id,
    client: object.clientid,
    list: object.list as IpListName,
    ruleType,
    value,
    pools,
    expiresAt,
    objectSize: values.length,
    ...(reason !== undefined ? { reason } : {}),
    ...(owner !== undefined ? { owner } : {}),
    ...(fingerprint !== undefined ? { fingerprint } : {}),
  }));
}

function valuesOf(object: ApiIpRule, ruleType: IpRuleType): string[] {
  if (ruleType === 'ip_range') return object.subnet ? [canonicalSubnet(object.subnet)] : [];
  const singular = ruleType === 'country' ? object.country : ruleType === 'proxy_type' ? object.proxy_type : object.datacenter;
  const raw = object.source_values?.length ? object.source_values : singular ? [singular] : [];
  const canonical = raw.map((value) => (ruleType === 'datacenter' ? value.toLowerCase() : value.toUpperCase()));
  return [...new Set(canonical)];
}

/**
 * A listed subnet in canonical form. The listing almost always spells IPv4
 * subnets canonically already; `canonicalCidr` recognizes that form with a
 * regex and integer arithmetic (model/cidr.ts), so 50,000 listed subnets no
 * longer go through the general parser.
 */
export function canonicalSubnet(subnet: string): string {
  return canonicalCidr(subnet);
}
