/**
 * Which live objects an export writes, and into which file's scope. Pure.
 *
 * Left out, each with a reason: objects carrying another owner's mark (and ours
 * with `excludeOwned`), IP entries already expired, rules
 * whose instance conditions or IP objects whose pools no policy file can
 * express, and the extra copies of duplicates and conflicts the policy format
 * rejects (the same rule twice, two modes for the same traffic, one value in
 * two lists for overlapping applications). Leaving out an unmarked object is
 * always plan-neutral: Rampart never deletes what it does not own.
 */
import { planClass } from '../plan/classes/index.js';
import { ipKey, IP_LISTS, LIST_LABELS, poolsOverlap, type LiveIpEntry } from '../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import { describeRewrites } from '../model/rewrites.js';
import { ruleRewrites } from '../model/rule-rewrites.js';
import { ruleKey, type LiveRule } from '../model/rule.js';
import type { LiveState } from '../model/state.js';
import type { ExportOptions, PlacedIpEntry, PlacedRule, Scope, Selection, Skipped } from './types.js';

const APP_ID = /^[1-9]\d{0,15}$/;

export function selectObjects(live: LiveState, options: Pick<ExportOptions, 'client' | 'owner' | 'excludeOwned' | 'now'>): Selection {
  const skipped: Skipped[] = [];
  const rules = selectRules(live.rules.filter((r) => r.client === options.client), options, skipped);
  const ipEntries = selectIpEntries(live.ipEntries.filter((e) => e.client === options.client), options, skipped);
  return { rules, ipEntries, skipped: sortSkipped(skipped) };
}

type OwnershipOptions = Pick<ExportOptions, 'owner' | 'excludeOwned'>;

function ownershipSkip(owner: string | undefined, options: OwnershipOptions): Pick<Skipped, 'reason' | 'detail'> | undefined {
  if (owner === undefined) return undefined;
  if (owner === options.owner) {
    return options.excludeOwned
      ? { reason: 'owned', detail: `managed by "${owner}" (left out by --exclude-owned: already in your policies)` }
      : undefined;
  }
  return { reason: 'other-owner', detail: `managed by another owner, "${owner}" (export with --owner ${owner} to take it over)` };
}

/** Owned objects first (their comment and reason must match exactly), then the oldest. */
function preference(a: { owner?: string; id: number }, b: { owner?: string; id: number }): number {
  return Number(a.owner === undefined) - Number(b.owner === undefined) || a.id - b.id;
}

export function ruleScope(rule: LiveRule): Scope | string {
  const instances = rule.conditions.filter((c) => c.point[0] === 'instance');
  if (instances.length === 0) return { kind: 'all' };
  if (instances.length > 1) {
    return `it has ${instances.length} instance conditions (${instances.map((c) => c.value).join(', ')}); a policy file gives a rule exactly one application or none`;
  }
  const value = instances[0]?.value ?? '';
  if (!APP_ID.test(value)) return `its instance condition "${value}" is not an application id`;
  return { kind: 'apps', apps: [Number(value)] };
}

export function ipScope(entry: LiveIpEntry): Scope | string {
  if (entry.pools.length === 1 && entry.pools[0] === ALL_APPLICATIONS_POOL) return { kind: 'all' };
  if (entry.pools.length === 0 || entry.pools.some((p) => !Number.isSafeInteger(p) || p < 1)) {
    return `its pools [${entry.pools.join(', ')}] mix "all applications" (0) with application ids`;
  }
  return { kind: 'apps', apps: [...entry.pools].sort((a, b) => a - b) };
}

function selectRules(rules: readonly LiveRule[], options: OwnershipOptions, skipped: Skipped[]): PlacedRule[] {
  const candidates: PlacedRule[] = [];
  for (const rule of rules) {
    const own = ownershipSkip(rule.owner, options);
    if (own) {
      skipped.push({ kind: 'rule', id: rule.id, ...own });
      continue;
    }
    const scope = ruleScope(rule);
    if (typeof scope === 'string') {
      skipped.push({ kind: 'rule', id: rule.id, reason: 'unmappable', detail: scope });
      continue;
    }
    candidates.push({ scope, live: rule });
  }
  candidates.sort((a, b) => preference(a.live, b.live));

  const byKey = new Map<string, PlacedRule>();
  const out: PlacedRule[] = [];
  for (const placed of candidates) {
    const rule = placed.live;
    const key = ruleKey(rule);
    const first = byKey.get(key);
    if (first) {
      // One identity can be declared once: an exact copy is a duplicate, other values a conflict.
      const differences = ruleRewrites(first.live, rule).filter((r) => r.field !== 'comment');
      skipped.push(differences.length === 0
        ? { kind: 'rule', id: rule.id, reason: 'duplicate', detail: `the same rule as id ${first.live.id}` }
        : { kind: 'rule', id: rule.id, reason: 'conflict', detail: `the same ${rule.kind} rule as id ${first.live.id} with other values (${describeRewrites(differences)})` });
      continue;
    }
    byKey.set(key, placed);
    out.push(placed);
  }
  return out.sort((a, b) => a.live.id - b.live.id);
}


function selectIpEntries(entries: readonly LiveIpEntry[], options: Pick<ExportOptions, 'owner' | 'excludeOwned' | 'now'>, skipped: Skipped[]): PlacedIpEntry[] {
  const candidates: PlacedIpEntry[] = [];
  for (const entry of entries) {
    const base = { kind: 'ip' as const, id: entry.id, value: entry.value };
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

  const byKey = new Map<string, PlacedIpEntry>();
  const byValue = new Map<string, PlacedIpEntry[]>();
  const out: PlacedIpEntry[] = [];
  for (const placed of candidates) {
    const entry = placed.live;
    const base = { kind: 'ip' as const, id: entry.id, value: entry.value };
    const key = ipKey(entry);
    const first = byKey.get(key);
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
    byKey.set(key, placed);
    kept.push(placed);
    byValue.set(valueKey, kept);
    out.push(placed);
  }
  return out.sort((a, b) => a.live.id - b.live.id || (a.live.value < b.live.value ? -1 : a.live.value > b.live.value ? 1 : 0));
}

export function sortSkipped(skipped: readonly Skipped[]): Skipped[] {
  return [...skipped].sort(
    (a, b) =>
      planClass(a.kind).order - planClass(b.kind).order ||
      a.id - b.id ||
      ((a.value ?? '') < (b.value ?? '') ? -1 : (a.value ?? '') > (b.value ?? '') ? 1 : 0),
  );
}
