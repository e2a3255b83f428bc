/**
 * A listed IP-list object, from either IP-list API, as the model's entries:
 * one LiveIpEntry per value it holds (listed-ip-value.ts), with the owner
 * mark read from its reason. Each backend names its own fields; this is
 * where they meet.
 */
import { canonicalCidr } from '../../model/cidr.js';
import { ALL_APPLICATIONS_POOL } from '../../model/application.js';
import { Interner } from '../../model/interner.js';
import { type IpListName, type IpRuleType, type LiveIpEntry, modelExpiry } from '../../model/ip.js';
import { readOwnerMark } from '../../model/ownership.js';
import { type ListedIpAttributes, ListedIpValue } from './listed-ip-value.js';

/** An object as both APIs list it, in the model's names. */
export interface ListedIpObject {
  readonly id: number;
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  /** As listed: canonicalized here. */
  readonly values: readonly string[];
  readonly pools: readonly number[] | null | undefined;
  readonly expiredAt: unknown;
  readonly reason: string | null | undefined;
}

/** `intern` shares repeated values between the entries of one read (interner.ts). */
export function liveEntriesOf(object: ListedIpObject, intern: Interner = new Interner()): LiveIpEntry[] {
  const values = canonicalValues(object.ruleType, object.values);
  const mark = readOwnerMark(object.reason);
  const reason = intern.string(mark.text);
  const owner = intern.string(mark.owner);
  const { fingerprint } = mark;
  const pools = poolsOf(object.pools, intern);
  const expiresAt = modelExpiry(object.expiredAt, Date.now() / 1000);
  // Equal to the last object's nearly always: one shared by the values of both (pools, reason and owner are interned).
  const attributes: ListedIpAttributes = intern.recent(object.list, {
    client: object.client, list: object.list, ruleType: object.ruleType, pools, expiresAt, objectSize: values.length, reason, owner,
  });
  return values.map((value) => new ListedIpValue(object.id, value, fingerprint, attributes));
}

/** Sorted, each once, `[0]` (all applications) when none; nearly every object names one application. */
function poolsOf(pools: readonly number[] | null | undefined, intern: Interner): readonly number[] {
  if (!pools || pools.length === 0) return intern.pool(ALL_APPLICATIONS_POOL);
  if (pools.length === 1) return intern.pool(pools[0] as number);
  return intern.numbers([...new Set(pools)].sort((a, b) => a - b));
}

function canonicalValues(ruleType: IpRuleType, raw: readonly string[]): string[] {
  if (ruleType === 'ip_range') return raw.length > 0 ? [canonicalSubnet(raw[0] as string)] : [];
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
