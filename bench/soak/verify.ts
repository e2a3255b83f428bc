/**
 * The soak's verdict: the emulator's stored state (not a listing) against the
 * desired state of the policies. Every desired rule and IP value is held
 * exactly once by an object carrying our mark, with the declared comment,
 * reason and expiry; nothing else carries our mark; and every foreign object
 * planted at the start is still there, byte for byte.
 */
import type { ApiHint, ApiIpRule } from '../../src/api/records.js';
import type { HintRecord, IpObject, StateView } from '../../src/emulator/index.js';
import { liveRuleFromHint } from '../../src/live/normalize-hint.js';
import { liveEntriesFromIpRule } from '../../src/live/ip-backends/v4-records.js';
import { ipKey, type LiveIpEntry } from '../../src/model/ip.js';
import { describeRewrites } from '../../src/model/rewrites.js';
import { ruleRewrites } from '../../src/model/rule-rewrites.js';
import { ruleContentKey, ruleKey, type LiveRule } from '../../src/model/rule.js';
import type { DesiredState } from '../../src/model/state.js';

export interface ForeignSnapshot {
  readonly hints: ReadonlyMap<number, string>;
  readonly ipObjects: ReadonlyMap<number, string>;
}

export interface Verdict {
  readonly ok: boolean;
  readonly problems: string[];
  readonly desiredRules: number;
  readonly desiredIpValues: number;
  readonly ownedRules: number;
  readonly ownedIpValues: number;
  readonly foreignObjects: number;
}

/** Records that exist now: not deleted (even if a lagging listing still shows them), not expired. */
function current(state: StateView): { hints: HintRecord[]; ipObjects: IpObject[] } {
  const nowSec = state.nowMs / 1000;
  return {
    hints: state.hints.filter((s) => s.unlistedFromMs === undefined).map((s) => s.record),
    ipObjects: state.ipObjects.filter((s) => s.unlistedFromMs === undefined && s.record.expired_at > nowSec).map((s) => s.record),
  };
}

export function snapshotForeign(state: StateView, hintIds: readonly number[], ipIds: readonly number[]): ForeignSnapshot {
  const { hints, ipObjects } = current(state);
  const pick = <T extends { id: number }>(records: T[], ids: readonly number[]) =>
    new Map(records.filter((r) => ids.includes(r.id)).map((r) => [r.id, JSON.stringify(r)]));
  return { hints: pick(hints, hintIds), ipObjects: pick(ipObjects, ipIds) };
}

const group = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
};

export function verifyConvergence(state: StateView, desired: DesiredState, owner: string, foreign: ForeignSnapshot): Verdict {
  const problems: string[] = [];
  const { hints, ipObjects } = current(state);
  const clients = new Set(desired.clients);

  const ownedRules: LiveRule[] = hints
    .flatMap((h) => liveRuleFromHint(h as unknown as ApiHint) ?? [])
    .filter((r) => r.owner === owner);
  const rulesByKey = group(ownedRules, ruleKey);
  for (const want of desired.rules) {
    const key = ruleKey(want);
    const held = rulesByKey.get(key) ?? [];
    const where = `${want.source.file}:${want.source.line} rule ${want.source.name}`;
    if (held.length !== 1) problems.push(`${where}: ${held.length} copies on the server (ids ${held.map((r) => r.id).join(', ') || 'none'})`);
    else if (held[0] && ruleContentKey(held[0]) !== ruleContentKey(want)) problems.push(`${where}: ${describeRewrites(ruleRewrites(want, held[0]))} (declared → on the server)`);
  }
  const desiredRuleKeys = new Set(desired.rules.map(ruleKey));
  for (const rule of ownedRules) {
    if (!desiredRuleKeys.has(ruleKey(rule))) problems.push(`rule id ${rule.id} (client ${rule.client}) carries our mark but is not desired`);
  }

  const ownedIp: LiveIpEntry[] = ipObjects
    .flatMap((o) => liveEntriesFromIpRule(o as unknown as ApiIpRule))
    .filter((e) => e.owner === owner);
  const ipByKey = group(ownedIp, ipKey);
  for (const want of desired.ipEntries) {
    const held = ipByKey.get(ipKey(want)) ?? [];
    const where = `${want.source.file}:${want.source.line} ${want.list} ${want.value} pools ${want.pools.join(',')}`;
    const entry = held[0];
    if (held.length !== 1 || !entry) problems.push(`${where}: ${held.length} copies on the server (ids ${held.map((e) => e.id).join(', ') || 'none'})`);
    else if (entry.expiresAt !== want.expiresAt || (entry.reason ?? '') !== (want.reason ?? '')) {
      problems.push(`${where}: expiry/reason ${entry.expiresAt}/${JSON.stringify(entry.reason)} instead of ${want.expiresAt}/${JSON.stringify(want.reason)}`);
    }
  }
  const desiredIpKeys = new Set(desired.ipEntries.map(ipKey));
  for (const entry of ownedIp) {
    if (!desiredIpKeys.has(ipKey(entry))) problems.push(`IP object id ${entry.id} (${entry.list} ${entry.value}) carries our mark but is not desired`);
  }
  for (const rule of ownedRules) if (!clients.has(rule.client)) problems.push(`rule id ${rule.id} is owned in an undeclared client ${rule.client}`);

  const checkForeign = <T extends { id: number }>(kind: string, before: ReadonlyMap<number, string>, records: readonly T[]) => {
    const now = new Map(records.map((r) => [r.id, r]));
    for (const [id, json] of before) {
      const record = now.get(id);
      if (!record) problems.push(`foreign ${kind} id ${id} was deleted`);
      else if (JSON.stringify(record) !== json) problems.push(`foreign ${kind} id ${id} was changed: ${JSON.stringify(record)}`);
    }
  };
  checkForeign('rule', foreign.hints, hints);
  checkForeign('IP object', foreign.ipObjects, ipObjects);

  return {
    ok: problems.length === 0,
    problems,
    desiredRules: desired.rules.length,
    desiredIpValues: desired.ipEntries.length,
    ownedRules: ownedRules.length,
    ownedIpValues: ownedIp.length,
    foreignObjects: foreign.hints.size + foreign.ipObjects.size,
  };
}
