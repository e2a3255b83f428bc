/**
 * A listed IP-list object → one LiveIpEntry per value it holds, whichever
 * granularity the server lists in (one object per value, or one per request).
 */
import type { ApiIpRule } from '../api/records.js';
import { canonicalCidr } from '../model/cidr.js';
import { type IpListName, type IpRuleType, IP_LISTS, IP_RULE_TYPES, type LiveIpEntry, modelExpiry } from '../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import { readOwnerMark } from '../model/ownership.js';
import { Interner } from '../model/interner.js';

/** The model's own constants by the answer's spelling: a listed object carries copies of them. */
const LIST_NAMES = new Map<string, IpListName>(IP_LISTS.map((list) => [list, list]));
const RULE_TYPES = new Map<string, IpRuleType>(IP_RULE_TYPES.map((type) => [type, type]));

/** `intern` shares repeated values between the entries of one read (interner.ts). */
export function liveEntriesFromIpRule(object: ApiIpRule, intern: Interner = new Interner()): LiveIpEntry[] {
  const list = LIST_NAMES.get(object.list);
  const ruleType = RULE_TYPES.get(object.rule_type);
  if (!list || !ruleType) return [];
  const values = valuesOf(object, ruleType);
  const mark = readOwnerMark(object.reason);
  const reason = intern.string(mark.text);
  const owner = intern.string(mark.owner);
  const { fingerprint } = mark;
  const pools = poolsOf(object.pools, intern);
  const expiresAt = modelExpiry(object.expired_at, Date.now() / 1000);
  // Every member written, `undefined` where the object has none: one shape, its members in the object
  // itself (as in normalize-hint.ts).
  return values.map((value): LiveIpEntry => ({
    id: object.id,
    client: object.clientid,
    list,
    ruleType,
    value,
    pools,
    expiresAt,
    objectSize: values.length,
    reason,
    owner,
    fingerprint,
  }));
}

/** Sorted, each once, `[0]` (all applications) when none; nearly every object names one application. */
function poolsOf(pools: readonly number[] | null | undefined, intern: Interner): readonly number[] {
  if (!pools || pools.length === 0) return intern.pool(ALL_APPLICATIONS_POOL);
  if (pools.length === 1) return intern.pool(pools[0] as number);
  return intern.numbers([...new Set(pools)].sort((a, b) => a - b));
}

function valuesOf(object: ApiIpRule, ruleType: IpRuleType): string[] {
  if (ruleType === 'ip_range') return object.subnet ? [canonicalSubnet(object.subnet)] : [];
  const singular = ruleType === 'country' ? object.country : ruleType === 'proxy_type' ? object.proxy_type : object.datacenter;
  const raw = object.source_values?.length ? object.source_values : singular ? [singular] : [];
  const canonical = raw.map((value) => (ruleType === 'datacenter' ? value.toLowerCase() : value.toUpperCase()));
  return canonical.length === 1 ? canonical : [...new Set(canonical)];
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
