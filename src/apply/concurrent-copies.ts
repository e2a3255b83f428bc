/**
 * Two writers of one owner at once (a CI apply beside the daemon, two
 * pipelines, two replicas) each create what the policies declare, and the
 * account ends up holding it twice. The service has no lock, so this cannot be
 * prevented; it is cleaned up in the same run. After its writes show in the
 * listings, apply looks for objects of its own owner, written from the same
 * declaration as one it created, that it did not write: copies another run
 * made. Every run keeps the copy with the LOWEST id and deletes the others, so
 * two runs never disagree on which stays, whichever finishes first. For a
 * one-per-scope rule the lowest id is the one the service itself keeps: no gap.
 */
import type { ServiceApi } from '../api/service.js';
import { IP_RULE_PAGE_LIMIT } from '../api/service.js';
import { liveRuleFromHint } from '../live/normalize-hint.js';
import { liveEntriesFromIpRule } from '../live/normalize-ip-rule.js';
import { fetchAllPages } from '../live/paging.js';
import { listClientRules } from '../live/rule-listing.js';
import { ipWriteKey, listedIpWriteKey, listedRuleWriteKey, ruleWriteKey } from '../model/fingerprint.js';
import { ipEntriesFromPlan, ruleFromPlan } from '../plan/objects.js';
import type { ChangeResult } from '../audit/change-result.js';

/** A copy another writer made, deleted. */
export interface ConcurrentCopy {
  readonly kind: 'rule' | 'ip';
  readonly client: number;
  /** The copy deleted. */
  readonly id: number;
  /** The copy kept (the lowest id). */
  readonly kept: number;
  /** The rule's name from its mark, or the IP values the object held. */
  readonly name?: string;
  readonly values?: readonly string[];
  readonly list?: string;
}

export interface CopyOptions {
  readonly api: ServiceApi;
  readonly owner: string;
  readonly stop?: AbortSignal;
}

/** Finds and deletes the other writers' copies of what `results` created; what it deleted. */
export async function removeConcurrentCopies(results: readonly ChangeResult[], options: CopyOptions): Promise<ConcurrentCopy[]> {
  const created = results.filter((result) => result.status === 'applied' && result.change.action === 'create');
  /** Per client: write key → the id this run created it with (known even before the listing shows it). */
  const ruleKeys = new Map<number, Map<string, number | undefined>>();
  /** Per `client|list`: write key → the value, and the object this run created holding it when the answer named one. */
  const ipKeys = new Map<string, Map<string, OwnValue>>();
  for (const { change, id, ids } of created) {
    if (change.action !== 'create') continue;
    if (change.kind === 'rule') {
      const keys = ruleKeys.get(change.client) ?? new Map<string, number | undefined>();
      ruleKeys.set(change.client, keys.set(ruleWriteKey(ruleFromPlan(change.client, change.rule)), id));
    } else {
      // One object holds every value of the request when the answer names one id; otherwise the listing tells.
      const holder = ids?.length === 1 ? ids[0] : undefined;
      for (const entry of ipEntriesFromPlan(change.client, change.object)) {
        const list = `${change.client}|${entry.list}`;
        const keys = ipKeys.get(list) ?? new Map<string, OwnValue>();
        ipKeys.set(list, keys.set(ipWriteKey(entry), { value: entry.value, ...(holder !== undefined ? { holder } : {}) }));
      }
    }
  }
  const removed: ConcurrentCopy[] = [];
  for (const [client, keys] of ruleKeys) {
    if (options.stop?.aborted) break;
    removed.push(...await ruleCopies(client, keys, options));
  }
  for (const [clientList, keys] of ipKeys) {
    if (options.stop?.aborted) break;
    const [client, list] = clientList.split('|') as [string, string];
    removed.push(...await ipCopies(Number(client), list, keys, options));
  }
  return removed;
}

async function ruleCopies(client: number, keys: ReadonlyMap<string, number | undefined>, options: CopyOptions): Promise<ConcurrentCopy[]> {
  const byKey = new Map<string, { id: number; name?: string }[]>();
  // This run's own copy counts whether or not the listing shows it yet.
  for (const [key, id] of keys) if (id !== undefined) byKey.set(key, [{ id }]);
  for (const hint of await listClientRules(options.api, client, options.stop)) {
    const rule = liveRuleFromHint(hint);
    const key = rule && rule.owner === options.owner ? listedRuleWriteKey(rule) : undefined;
    if (key === undefined || !keys.has(key) || byKey.get(key)?.some((copy) => copy.id === hint.id)) continue;
    byKey.set(key, [...(byKey.get(key) ?? []), { id: hint.id, ...(rule?.name !== undefined ? { name: rule.name } : {}) }]);
  }
  const copies: ConcurrentCopy[] = [];
  for (const rules of byKey.values()) {
    const [first, ...others] = [...rules].sort((a, b) => a.id - b.id);
    if (!first) continue;
    for (const other of others) copies.push({ kind: 'rule', client, id: other.id, kept: first.id, ...(other.name !== undefined ? { name: other.name } : {}) });
  }
  if (copies.length > 0) await options.api.deleteHints(client, copies.map((copy) => copy.id), options.stop ? { stopRetrying: options.stop } : {});
  return copies;
}

/**
 * Per value and list: an object goes when every value it holds is one this
 * run wrote and a lower-id object of the owner holds it too (an object that
 * also holds a value nobody else does stays, so nothing is lost).
 */
interface OwnValue {
  readonly value: string;
  readonly holder?: number;
}

async function ipCopies(client: number, list: string, keys: ReadonlyMap<string, OwnValue>, options: CopyOptions): Promise<ConcurrentCopy[]> {
  const objects = await fetchAllPages((offset, limit) => options.api.listIpRules(client, list, offset, limit, options.stop ? { signal: options.stop } : {}), IP_RULE_PAGE_LIMIT);
  const entriesOf = new Map<number, { key: string | undefined; value: string }[]>();
  const lowest = new Map<string, number>();
  // This run's own objects count whether or not the listing shows them yet.
  for (const [key, { value, holder }] of keys) {
    if (holder === undefined) continue;
    lowest.set(key, Math.min(lowest.get(key) ?? holder, holder));
    entriesOf.set(holder, [...(entriesOf.get(holder) ?? []), { key, value }]);
  }
  for (const object of objects) {
    const entries = liveEntriesFromIpRule(object).filter((entry) => entry.owner === options.owner);
    if (entries.length === 0) continue;
    // The listing's view of an object replaces what this run assumed of it.
    entriesOf.set(object.id, entries.map((entry) => ({ key: listedIpWriteKey(entry), value: entry.value })));
    for (const entry of entries) {
      const key = listedIpWriteKey(entry);
      if (key !== undefined && keys.has(key)) lowest.set(key, Math.min(lowest.get(key) ?? object.id, object.id));
    }
  }
  const copies: ConcurrentCopy[] = [];
  for (const [id, entries] of entriesOf) {
    const keptBy = entries.map((entry) => (entry.key !== undefined && keys.has(entry.key) ? lowest.get(entry.key) : undefined));
    if (!keptBy.every((kept) => kept !== undefined && kept < id)) continue;
    copies.push({ kind: 'ip', client, id, kept: Math.min(...(keptBy as number[])), list, values: entries.map((entry) => entry.value) });
  }
  if (copies.length > 0) await options.api.deleteIpRules(client, copies.map((copy) => copy.id), options.stop ? { stopRetrying: options.stop } : {});
  return copies;
}
