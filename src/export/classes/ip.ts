/**
 * IP-list entries as `rampart export` writes them: placed by their pools,
 * unexpired, one per list and value, written under `ip_lists` (entries
 * sharing kind, expiry and reason as one), read back with their reason and
 * expiry.
 */
import type { Node } from 'yaml';
import { ALL_APPLICATIONS_POOL } from '../../model/application.js';
import { compareStrings } from '../../model/compare.js';
import {
  ipKey, IP_LISTS, IP_RULE_TYPES, IP_VALUE_KEYS, LIST_LABELS, NEVER_EXPIRES, POLICY_LIST_NAMES, POLICY_LISTS, plainIpEntry, poolsOverlap,
  type DesiredIpEntry, type IpRuleType, type LiveIpEntry,
} from '../../model/ip.js';
import { cidrRange } from '../../policy/address.js';
import { formatSeconds } from '../../policy/expiry.js';
import { cleanText } from '../clean-text.js';
import { ownershipSkip, preference } from '../ownership.js';
import type { Placed, Scope } from '../types.js';
import type { ClassSkip, ExportClass } from './class.js';

/** Longer `ips` lists are written one address per line. */
const FLOW_IPS_MAX = 8;

export const IP_EXPORT: ExportClass<LiveIpEntry, DesiredIpEntry, 'ipValues'> = {
  // IP-list values (one per address, country, ...), as plans count them.
  counted: 'ipValues',
  handle: (entry) => ({ id: entry.id, value: entry.value }),

  select(entries, options) {
    const skipped: ClassSkip[] = [];
    const candidates: Placed<LiveIpEntry>[] = [];
    for (const entry of entries) {
      const base = IP_EXPORT.handle(entry);
      const own = ownershipSkip(entry.owner, options);
      if (own) {
        skipped.push({ ...base, ...own });
        continue;
      }
      if (entry.expiresAt <= options.now) {
        skipped.push({ ...base, reason: 'expired', detail: `expired at ${new Date(entry.expiresAt * 1000).toISOString()}; the service drops it` });
        continue;
      }
      const scope = ipScope(entry);
      if (typeof scope === 'string') {
        skipped.push({ ...base, reason: 'unmappable', detail: scope });
        continue;
      }
      candidates.push({ scope, live: entry });
    }
    candidates.sort((a, b) => preference(a.live, b.live) || IP_LISTS.indexOf(a.live.list) - IP_LISTS.indexOf(b.live.list));

    const byKey = new Map<string, Placed<LiveIpEntry>>();
    const byValue = new Map<string, Placed<LiveIpEntry>[]>();
    const placed: Placed<LiveIpEntry>[] = [];
    for (const candidate of candidates) {
      const entry = candidate.live;
      const base = IP_EXPORT.handle(entry);
      const first = byKey.get(ipKey(entry));
      if (first) {
        skipped.push({ ...base, reason: 'duplicate', detail: `also held by id ${first.live.id} in the same list for the same applications` });
        continue;
      }
      const valueKey = JSON.stringify([entry.ruleType, entry.value]);
      const kept = byValue.get(valueKey) ?? [];
      const clash = kept.find((k) => poolsOverlap(k.live.pools, entry.pools));
      if (clash) {
        skipped.push({
          ...base, reason: 'conflict',
          detail: `also in the ${LIST_LABELS[clash.live.list]} list (id ${clash.live.id}) for overlapping applications; a policy lists a value once`,
        });
        continue;
      }
      byKey.set(ipKey(entry), candidate);
      kept.push(candidate);
      byValue.set(valueKey, kept);
      placed.push(candidate);
    }
    return { placed: placed.sort((a, b) => a.live.id - b.live.id || compareStrings(a.live.value, b.live.value)), skipped };
  },

  render(entries, nodes) {
    const lists: Record<string, unknown> = {};
    for (const label of POLICY_LISTS) {
      const listed = entries.filter((e) => e.list === POLICY_LIST_NAMES[label]);
      if (listed.length > 0) lists[label] = ipEntrySpecs(listed, nodes.flow);
    }
    return Object.keys(lists).length > 0 ? { ip_lists: lists } : {};
  },

  readsBack(desired) {
    const declared = new Set(desired.map(ipIdentity));
    // The plain entry, not a spread: a listed value's attributes are getters (listed-ip-value.ts).
    return (entry) => declared.has(ipIdentity({ ...plainIpEntry(entry), reason: cleanText(entry.reason) }));
  },
  lostDetail: 'the policy format cannot express this entry exactly (e.g. its reason or a fractional expiry)',
};

/** The file an entry goes into, from its pools; or why no file can hold it. */
export function ipScope(entry: LiveIpEntry): Scope | string {
  if (entry.pools.length === 1 && entry.pools[0] === ALL_APPLICATIONS_POOL) return { kind: 'all' };
  if (entry.pools.length === 0 || entry.pools.some((p) => !Number.isSafeInteger(p) || p < 1)) {
    return `its pools [${entry.pools.join(', ')}] mix "all applications" (0) with application ids`;
  }
  return { kind: 'apps', apps: [...entry.pools].sort((a, b) => a - b) };
}

/** What must read back of an entry: its identity, expiry and reason. */
function ipIdentity(entry: Pick<LiveIpEntry, 'expiresAt' | 'reason'> & Parameters<typeof ipKey>[0]): string {
  return JSON.stringify([ipKey(entry), entry.expiresAt, entry.reason ?? null]);
}

/** Entries sharing kind, expiry and reason become one entry listing all their values. */
function ipEntrySpecs(entries: readonly LiveIpEntry[], flow: (value: unknown) => Node): unknown[] {
  const groups = new Map<string, { ruleType: IpRuleType; expiresAt: number; reason?: string; values: string[] }>();
  for (const entry of entries) {
    const reason = cleanText(entry.reason);
    const key = JSON.stringify([IP_RULE_TYPES.indexOf(entry.ruleType), entry.expiresAt, reason ?? null]);
    const group = groups.get(key) ?? { ruleType: entry.ruleType, expiresAt: entry.expiresAt, ...(reason !== undefined ? { reason } : {}), values: [] };
    group.values.push(entry.value);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        IP_RULE_TYPES.indexOf(a.ruleType) - IP_RULE_TYPES.indexOf(b.ruleType) ||
        a.expiresAt - b.expiresAt ||
        compareStrings(a.reason ?? '', b.reason ?? ''),
    )
    .map((group) => {
      const values = group.ruleType === 'ip_range' ? sortAddresses(group.values).map(shortAddress) : [...group.values].sort(compareStrings);
      const spec: Record<string, unknown> = {
        [IP_VALUE_KEYS[group.ruleType]]: group.ruleType === 'ip_range' && values.length > FLOW_IPS_MAX ? values : flow(values),
      };
      if (group.reason !== undefined) spec.reason = group.reason;
      if (group.expiresAt !== NEVER_EXPIRES) spec.expires = formatSeconds(group.expiresAt);
      return spec;
    });
}

/** IPv4 before IPv6, then by address, wider subnets first. */
function sortAddresses(values: readonly string[]): string[] {
  return values
    .map((value) => ({ value, range: safeRange(value) }))
    .sort(
      (a, b) =>
        compareStrings(a.range.family, b.range.family) ||
        (a.range.first < b.range.first ? -1 : a.range.first > b.range.first ? 1 : 0) ||
        (a.range.last > b.range.last ? -1 : a.range.last < b.range.last ? 1 : 0),
    )
    .map((x) => x.value);
}

function safeRange(value: string): { family: string; first: bigint; last: bigint } {
  try {
    return cidrRange(value);
  } catch {
    // Not an address: the round-trip check leaves it out; sort it last meanwhile.
    return { family: '~', first: 0n, last: 0n };
  }
}

/** `1.2.3.4/32` → `1.2.3.4`: a single address reads better without its mask. */
function shortAddress(cidr: string): string {
  if (cidr.endsWith('/32') && !cidr.includes(':')) return cidr.slice(0, -3);
  if (cidr.endsWith('/128')) return cidr.slice(0, -4);
  return cidr;
}
