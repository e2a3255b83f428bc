/**
 * Read-after-write: the service's listings lag its writes by seconds. Apply
 * returns only once the listings it touched show every write it made (or a
 * bounded wait passes), so a `plan` right after shows no changes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { IP_RULE_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { liveRuleFromHint } from '../live/normalize-hint.js';
import { liveEntriesFromIpRule } from '../live/normalize-ip-rule.js';
import { fetchAllPages } from '../live/paging.js';
import { listClientRules } from '../live/rule-listing.js';
import { ipWriteKey, listedIpWriteKey, listedRuleWriteKey, ruleWriteKey } from '../model/fingerprint.js';
import { ipEntriesFromPlan, ruleFromPlan } from '../plan/objects.js';
import type { ChangeResult } from '../audit/change-result.js';

export interface SettleOptions {
  readonly api: ServiceApi;
  readonly owner: string;
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly stop?: AbortSignal;
}

/**
 * What the listings must show, per listing: ids or write keys present (what
 * was written, not its identity: an object the service stored differently is
 * still found, an older one of the same identity does not stand in for it)
 * and ids absent.
 */
interface Expectations {
  /**
   * A created rule: its id listed, or a lower id of the same write key (the
   * copy another writer of the owner made first, which concurrent-copies.ts
   * keeps when it deletes this one).
   */
  readonly ruleIds: Map<number, Set<{ readonly id: number; readonly key: string }>>;
  readonly ruleKeys: Map<number, Set<string>>;
  readonly goneRuleIds: Map<number, Set<number>>;
  /** `client|list` → keys present / ids gone. */
  readonly ipKeys: Map<string, Set<string>>;
  readonly goneIpIds: Map<string, Set<number>>;
}

export async function waitForListings(results: readonly ChangeResult[], options: SettleOptions): Promise<boolean> {
  if (options.timeoutMs <= 0) return true;
  const expected = expectations(results);
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await listingsShow(expected, options)) return true;
    if (Date.now() >= deadline || options.stop?.aborted) return false;
    // A stop cuts the wait short and starts no further listing call.
    await sleep(options.intervalMs, undefined, options.stop ? { signal: options.stop } : {}).catch(() => undefined);
    if (options.stop?.aborted) return false;
  }
}

function expectations(results: readonly ChangeResult[]): Expectations {
  const expected: Expectations = { ruleIds: new Map(), ruleKeys: new Map(), goneRuleIds: new Map(), ipKeys: new Map(), goneIpIds: new Map() };
  const add = <K, V>(map: Map<K, Set<V>>, key: K, value: V) => map.set(key, (map.get(key) ?? new Set()).add(value));
  for (const { change, status, id } of results) {
    if (status !== 'applied' && status !== 'already-done') continue;
    if (change.action === 'create' && change.kind === 'rule') {
      const key = ruleWriteKey(ruleFromPlan(change.client, change.rule));
      if (id !== undefined) add(expected.ruleIds, change.client, { id, key });
      else add(expected.ruleKeys, change.client, key);
    } else if (change.action === 'update' || (change.action === 'adopt' && change.kind === 'rule')) {
      // Listed with the mark the update wrote: the listing shows the new version.
      add(expected.ruleKeys, change.client, ruleWriteKey(ruleFromPlan(change.client, change.rule)));
    } else if (change.action === 'create' || change.action === 'adopt') {
      // Answered 409: the values were there already, under whatever mark they carry.
      if (status === 'already-done') continue;
      for (const entry of ipEntriesFromPlan(change.client, change.object)) add(expected.ipKeys, `${change.client}|${entry.list}`, ipWriteKey(entry));
    } else if (change.kind === 'rule') {
      add(expected.goneRuleIds, change.client, change.id);
    } else {
      for (const object of change.objects) add(expected.goneIpIds, `${change.client}|${object.object.list}`, object.id);
    }
  }
  return expected;
}

async function listingsShow(expected: Expectations, options: SettleOptions): Promise<boolean> {
  const clients = new Set([...expected.ruleIds.keys(), ...expected.ruleKeys.keys(), ...expected.goneRuleIds.keys()]);
  for (const client of clients) {
    const hints = await listClientRules(options.api, client);
    const listedIds = new Set(hints.map((hint) => hint.id));
    const lowestOfKey = new Map<string, number>();
    for (const hint of hints) {
      const rule = liveRuleFromHint(hint);
      const key = rule && rule.owner === options.owner ? listedRuleWriteKey(rule) : undefined;
      if (key !== undefined) lowestOfKey.set(key, Math.min(lowestOfKey.get(key) ?? hint.id, hint.id));
    }
    const listedKeys = new Set(lowestOfKey.keys());
    if ([...(expected.ruleIds.get(client) ?? [])].some(({ id, key }) => !listedIds.has(id) && !((lowestOfKey.get(key) ?? Infinity) < id))) return false;
    if ([...(expected.ruleKeys.get(client) ?? [])].some((key) => !listedKeys.has(key))) return false;
    if ([...(expected.goneRuleIds.get(client) ?? [])].some((id) => listedIds.has(id))) return false;
  }
  const lists = new Set([...expected.ipKeys.keys(), ...expected.goneIpIds.keys()]);
  for (const clientList of lists) {
    const [client, list] = clientList.split('|') as [string, string];
    const objects = await fetchAllPages(
      (offset, limit) => options.api.listIpRules(Number(client), list, offset, limit),
      IP_RULE_PAGE_LIMIT,
    );
    const listedIds = new Set(objects.map((object) => object.id));
    const listedKeys = new Set(objects.flatMap((object) => liveEntriesFromIpRule(object)).flatMap((entry) =>
      entry.owner === options.owner ? (listedIpWriteKey(entry) ?? []) : []));
    if ([...(expected.ipKeys.get(clientList) ?? [])].some((key) => !listedKeys.has(key))) return false;
    if ([...(expected.goneIpIds.get(clientList) ?? [])].some((id) => listedIds.has(id))) return false;
  }
  return true;
}
