/**
 * A listed `/v4/ip_rules` object → one LiveIpEntry per value it holds,
 * whichever granularity the server lists in (one object per value, or one
 * per request).
 */
import type { ApiIpRule } from '../../api/records.js';
import { type IpListName, type IpRuleType, IP_LISTS, IP_RULE_TYPES, type LiveIpEntry } from '../../model/ip.js';
import { Interner } from '../../model/interner.js';
import { liveEntriesOf } from './entries.js';

/** The model's own constants by the answer's spelling: a listed object carries copies of them. */
const LIST_NAMES = new Map<string, IpListName>(IP_LISTS.map((list) => [list, list]));
const RULE_TYPES = new Map<string, IpRuleType>(IP_RULE_TYPES.map((type) => [type, type]));

/** `intern` shares repeated values between the entries of one read (interner.ts). */
export function liveEntriesFromIpRule(object: ApiIpRule, intern: Interner = new Interner()): LiveIpEntry[] {
  const list = LIST_NAMES.get(object.list);
  const ruleType = RULE_TYPES.get(object.rule_type);
  if (!list || !ruleType) return [];
  return liveEntriesOf({
    id: object.id, client: object.clientid, list, ruleType, values: valuesOf(object, ruleType),
    pools: object.pools, expiredAt: object.expired_at, reason: object.reason,
  }, intern);
}

function valuesOf(object: ApiIpRule, ruleType: IpRuleType): readonly string[] {
  if (ruleType === 'ip_range') return object.subnet ? [object.subnet] : [];
  const singular = ruleType === 'country' ? object.country : ruleType === 'proxy_type' ? object.proxy_type : object.datacenter;
  return object.source_values?.length ? object.source_values : singular ? [singular] : [];
}
