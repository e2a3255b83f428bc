import { ALL_APPLICATIONS_POOL } from './application.js';
import type { Source } from './source.js';
import { compareStrings } from './compare.js';

/**
 * IP-list entries in canonical form: one entry per value (an address or subnet,
 * a country, a proxy type, a datacenter), which is how the plan counts objects.
 * The live reader splits grouped objects into entries that remember their object.
 */

/** The lists, the one place they are named: the API's name and the policy files' (in their order). */
const LISTS = [
  { api: 'black', policy: 'deny' },
  { api: 'white', policy: 'allow' },
  { api: 'gray', policy: 'gray' },
] as const;

export const IP_LISTS = LISTS.map((list) => list.api);
export type IpListName = (typeof LISTS)[number]['api'];
export type PolicyListName = (typeof LISTS)[number]['policy'];

/** The policy files' list names, in the order a file lists them. */
export const POLICY_LISTS: readonly PolicyListName[] = LISTS.map((list) => list.policy);

/** Policy-file name → the API's. */
export const POLICY_LIST_NAMES = Object.fromEntries(LISTS.map((list) => [list.policy, list.api])) as Readonly<Record<PolicyListName, IpListName>>;

/** The API's name → the policy files' (what a person reads: `deny`, not `black`). */
export const LIST_LABELS = Object.fromEntries(LISTS.map((list) => [list.api, list.policy])) as Readonly<Record<IpListName, PolicyListName>>;

export const IP_RULE_TYPES = ['ip_range', 'country', 'proxy_type', 'datacenter'] as const;
export type IpRuleType = (typeof IP_RULE_TYPES)[number];

/** The policy files' key for the values of each type, in the order an entry lists them. */
export const IP_VALUE_KEYS = { ip_range: 'ips', country: 'countries', proxy_type: 'proxies', datacenter: 'datacenters' } as const satisfies Record<IpRuleType, string>;
export type IpValueKey = (typeof IP_VALUE_KEYS)[IpRuleType];

/** Policy-file value key → the API's rule type. */
export const RULE_TYPE_OF_KEY = Object.fromEntries(Object.entries(IP_VALUE_KEYS).map(([type, key]) => [key, type])) as Readonly<Record<IpValueKey, IpRuleType>>;

/** The seven the service's Terraform provider validates (its docs for `/v4/ip_rules` list the first five). */
export const PROXY_TYPES = ['VPN', 'SES', 'PUB', 'WEB', 'TOR', 'DCH', 'MIP'] as const;
export const DATACENTERS = [
  'rackspace', 'tencent', 'plusserver', 'ovh', 'oracle', 'linode', 'ibm',
  'huawei', 'hetzner', 'gce', 'azure', 'aws', 'alibaba',
] as const;

/** `expired_at` meaning "never" (the API's maximum). */
export const NEVER_EXPIRES = 33223139044;

/**
 * How far ahead an expiry reads as "never". The service's own clients write
 * "forever" as now + 100 years, never one literal value, so an account they
 * built would otherwise show every such entry as expiring on a date.
 */
const NEVER_FROM_SECONDS = 50 * 365.25 * 86_400;

/** Whether an expiry reads as never: more than 50 years after `nowSeconds`. */
export function readsAsNever(seconds: number, nowSeconds: number): boolean {
  return seconds > nowSeconds + NEVER_FROM_SECONDS;
}

/**
 * An expiry as the model holds it, on both sides alike (a policy's date and a
 * listed `expired_at`): absent, or more than 50 years ahead, is never. Were
 * only one side read so, a policy date past 50 years would never match.
 */
export function modelExpiry(expiredAt: unknown, nowSeconds: number): number {
  if (expiredAt === null || expiredAt === undefined) return NEVER_EXPIRES;
  const seconds = Number(expiredAt);
  return readsAsNever(seconds, nowSeconds) ? NEVER_EXPIRES : seconds;
}

export interface IpEntry {
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  /**
   * Normalized value: a CIDR with its mask (`1.2.3.4/32`, `2001:db8::/32`,
   * host bits cleared), an upper-case country code, an upper-case proxy type,
   * or a lower-case datacenter name.
   */
  readonly value: string;
  /** Sorted application ids; `[0]` for all applications. */
  readonly pools: readonly number[];
  /** Unix seconds; NEVER_EXPIRES for never. */
  readonly expiresAt: number;
  /** The user's reason, without Rampart's owner mark. */
  readonly reason?: string;
}

export interface DesiredIpEntry extends IpEntry {
  readonly source: Source;
}

export interface LiveIpEntry extends IpEntry {
  /** The id of the API object holding this value. */
  readonly id: number;
  /** Number of values the object holds (1 where the listing has one object per value). */
  readonly objectSize: number;
  readonly owner?: string;
  /** Fingerprint of the declaration it was created from, from the mark (model/fingerprint.ts). */
  readonly fingerprint?: string;
}

/** The entry alone: its attributes, no empty reason, nothing of where it was declared or listed. What a write sends. */
export function plainIpEntry(entry: IpEntry): IpEntry {
  return {
    client: entry.client, list: entry.list, ruleType: entry.ruleType, value: entry.value, pools: entry.pools, expiresAt: entry.expiresAt,
    ...(entry.reason !== undefined && entry.reason !== '' ? { reason: entry.reason } : {}),
  };
}

/**
 * The identity of an IP entry: what makes two entries the same object. JSON,
 * for what outlives a process (the plan's digests, export); in-process maps
 * use `ipSlotKey`, the same identity cheaper.
 */
export function ipKey(entry: IpEntry): string {
  return JSON.stringify([entry.client, entry.list, entry.ruleType, entry.value, entry.pools]);
}

/**
 * The order of `ipKey`'s text within one client, without building it: list,
 * type and value compare as their JSON text does because none holds a
 * character that JSON escapes or one below `"`; pools, rarely the tie-break,
 * compare as their JSON.
 */
export function compareIpIdentity(a: IpEntry, b: IpEntry): number {
  return a.client - b.client
    || compareStrings(a.list, b.list) || compareStrings(a.ruleType, b.ruleType) || compareStrings(a.value, b.value)
    || (a.pools === b.pools ? 0 : compareStrings(JSON.stringify(a.pools), JSON.stringify(b.pools)));
}

/*
 * In-process keys: fields joined by NUL, which no client, list, type, pool or
 * normalized value holds; cheaper than JSON.
 */

/** The identity of `ipKey` (same entries equal), as a map key: client, list, type, value, pools. */
export function ipSlotKey(e: IpEntry): string {
  return `${e.client}\u0000${e.list}\u0000${e.ruleType}\u0000${e.value}\u0000${e.pools.join(',')}`;
}

/**
 * Entries that one create request can carry together: non-`ip_range` entries
 * sharing client, list, type, pools, expiry and reason. The reason (any text)
 * comes last, after a separator only when there is one: no reason and an
 * empty one are different groups.
 */
export function ipGroupKey(e: IpEntry): string {
  const head = `${e.client}\u0000${e.list}\u0000${e.ruleType}\u0000${e.pools.join(',')}\u0000${e.expiresAt}`;
  return e.reason === undefined ? head : `${head}\u0000${e.reason}`;
}

/** The same value for any list and applications: what a move between lists is keyed by. */
export function ipValueKey(entry: IpEntry): string {
  return `${entry.client}\u0000${entry.ruleType}\u0000${entry.value}`;
}

/** Whether two objects' pools share an application (`0`, all applications, shares every one). */
export function poolsOverlap(a: readonly number[], b: readonly number[]): boolean {
  if (a.includes(ALL_APPLICATIONS_POOL) || b.includes(ALL_APPLICATIONS_POOL)) return true;
  return a.some((pool) => b.includes(pool));
}
