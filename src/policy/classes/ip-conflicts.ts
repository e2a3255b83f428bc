/**
 * IP-list entries across all files: the same value twice, or in two lists,
 * for overlapping applications; and nested subnets within a list.
 */
import type { Diagnostic } from '../../diagnostic.js';
import { ALL_APPLICATIONS_POOL } from '../../model/application.js';
import { ipv4Bounds } from '../../model/cidr.js';
import { LIST_LABELS, poolsOverlap, type DesiredIpEntry } from '../../model/ip.js';
import { getOrMake } from '../../model/maps.js';
import type { Source } from '../../model/source.js';
import { cidrRange } from '../address.js';
import { Findings, where } from '../findings.js';

export function ipConflicts(entries: readonly DesiredIpEntry[]): Diagnostic[] {
  const findings = new Findings();
  // The same value of one client and type: most values are declared once, so a list is made only for a second.
  const declared = new Map<number, Map<string, Map<string, DesiredIpEntry | DesiredIpEntry[]>>>();
  const repeated: DesiredIpEntry[][] = [];
  // Values come in runs of one client and type (an entry's values, a file's lists): their map is looked up once a run.
  let values = new Map<string, DesiredIpEntry | DesiredIpEntry[]>();
  let client: number | undefined;
  let ruleType: string | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as DesiredIpEntry;
    if (entry.client !== client || entry.ruleType !== ruleType) {
      client = entry.client;
      ruleType = entry.ruleType;
      values = nested(nested(declared, client), ruleType);
    }
    const known = values.get(entry.value);
    if (known === undefined) {
      values.set(entry.value, entry);
    } else if (Array.isArray(known)) {
      known.push(entry);
    } else {
      const group = [known, entry];
      values.set(entry.value, group);
      repeated.push(group);
    }
  }
  for (const group of repeated) {
    group.forEach((entry, j) => {
      const earlier = group.slice(0, j).find((e) => poolsOverlap(e.pools, entry.pools));
      if (!earlier) return;
      const apps = describePools(entry.pools, earlier.pools);
      if (earlier.list === entry.list) {
        findings.add('error', 'ip-duplicate', entry.source, `${entry.value} is listed twice in the ${LIST_LABELS[entry.list]} list, first at ${where(earlier.source)} ${apps}`);
      } else {
        findings.add('error', 'ip-conflict', entry.source, `${entry.value} is in the ${LIST_LABELS[entry.list]} list here and in the ${LIST_LABELS[earlier.list]} list at ${where(earlier.source)} ${apps}`);
      }
    });
  }
  for (const d of subnetOverlaps(entries)) findings.add('warning', 'subnet-overlap', d.at, d.message);
  return findings.diagnostics;
}

/** A subnet's first and last address: numbers for IPv4, bigints for IPv6 (one family per group). */
interface Span {
  readonly entry: DesiredIpEntry;
  readonly first: number | bigint;
  readonly last: number | bigint;
}

/** Nested subnets in one list for overlapping applications: a sweep over sorted ranges. */
function subnetOverlaps(entries: readonly DesiredIpEntry[]): { at: Source; message: string }[] {
  const out: { at: Source; message: string }[] = [];
  const groups = new Map<number, Map<string, Span[]>>();
  for (const entry of entries) {
    if (entry.ruleType !== 'ip_range') continue;
    const range = ipv4Bounds(entry.value) ?? cidrRange(entry.value);
    const family = typeof range.first === 'number' ? 'ipv4' : 'ipv6';
    const byFamily = nested(groups, entry.client);
    getOrMake(byFamily, `${entry.list} ${family}`, (): Span[] => []).push({ entry, first: range.first, last: range.last });
  }
  for (const group of [...groups.values()].flatMap((byFamily) => [...byFamily.values()])) {
    group.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.last > b.last ? -1 : a.last < b.last ? 1 : 0));
    // CIDRs either nest or are disjoint, so the open ranges form a stack.
    const open: Span[] = [];
    for (const item of group) {
      while (open.length > 0 && (open[open.length - 1] as Span).last < item.first) open.pop();
      const outer = open.find(
        (o) => o.entry.value !== item.entry.value && poolsOverlap(o.entry.pools, item.entry.pools),
      );
      if (outer) {
        out.push({
          at: item.entry.source,
          message: `${item.entry.value} lies inside ${outer.entry.value} (${LIST_LABELS[item.entry.list]} list, ${where(outer.entry.source)}); the narrower entry is redundant`,
        });
      }
      open.push(item);
    }
  }
  return out;
}

/** The map under `key`, made when missing. */
function nested<K, V>(outer: Map<K, Map<string, V>>, key: K): Map<string, V> {
  return getOrMake(outer, key, () => new Map<string, V>());
}

function describePools(a: readonly number[], b: readonly number[]): string {
  if (a.includes(ALL_APPLICATIONS_POOL) || b.includes(ALL_APPLICATIONS_POOL)) return '(all applications overlap)';
  const shared = a.filter((pool) => b.includes(pool));
  return `for application ${shared.join(', ')}`;
}
