/** Another writer's copies of the IP values this run created (see apply/concurrent-copies.ts). */
import type { CopyFinder, CopyOptions, ConcurrentCopy } from '../copy-finder.js';
import { listedIpWriteKey, ipWriteKey } from '../../model/ip-fingerprint.js';
import type { IpChange, CreateIp } from '../../model/ip-change.js';
import { onAction } from '../../model/by-action.js';
import { plainIpEntry, type IpListName, type IpRuleType, type LiveIpEntry } from '../../model/ip.js';
import { ipBackendOf } from '../../live/ip-backends/index.js';
import { ipListing } from './ip-calls.js';

export function ipCopyFinder(): CopyFinder<IpChange> {
  /** Per `client|list`: write key → the value, and the object this run created holding it when the answer named one. */
  const ipKeys = new Map<string, Map<string, OwnValue>>();
  return {
    note(change, { ids }) {
      // Only a create can leave a copy: an adoption moves values into one object, a delete removes them.
      const created = (c: CreateIp) => {
        // One object holds every value of the request when the answer names one id; otherwise the listing tells.
        const holder = ids?.length === 1 ? ids[0] : undefined;
        for (const entry of c.entries.map(plainIpEntry)) {
          const list = `${c.client}|${entry.list}`;
          const keys = ipKeys.get(list) ?? new Map<string, OwnValue>();
          ipKeys.set(list, keys.set(ipWriteKey(entry), { value: entry.value, ...(holder !== undefined ? { holder } : {}) }));
        }
      };
      onAction(change, { create: created, adopt: () => undefined, delete: () => undefined });
    },
    async remove(options) {
      const removed: ConcurrentCopy[] = [];
      for (const [clientList, keys] of ipKeys) {
        if (options.stop?.aborted) break;
        const [client, list] = clientList.split('|') as [string, IpListName];
        removed.push(...await ipCopies(Number(client), list, keys, options));
      }
      return removed;
    },
  };
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

async function ipCopies(client: number, list: IpListName, keys: ReadonlyMap<string, OwnValue>, options: CopyOptions): Promise<ConcurrentCopy[]> {
  const objects = await options.reads.lastRead(ipListing(client, list));
  const entriesOf = new Map<number, { key: string | undefined; value: string }[]>();
  const lowest = new Map<string, number>();
  // This run's own objects count whether or not the listing shows them yet.
  for (const [key, { value, holder }] of keys) {
    if (holder === undefined) continue;
    lowest.set(key, Math.min(lowest.get(key) ?? holder, holder));
    entriesOf.set(holder, [...(entriesOf.get(holder) ?? []), { key, value }]);
  }
  const owned = new Map<number, LiveIpEntry[]>();
  const typeOf = new Map<number, IpRuleType>(objects.map((entry) => [entry.id, entry.ruleType]));
  for (const entry of objects) if (entry.owner === options.owner) owned.set(entry.id, [...(owned.get(entry.id) ?? []), entry]);
  for (const [id, entries] of owned) {
    // The listing's view of an object replaces what this run assumed of it.
    entriesOf.set(id, entries.map((entry) => ({ key: listedIpWriteKey(entry), value: entry.value })));
    for (const entry of entries) {
      const key = listedIpWriteKey(entry);
      if (key !== undefined && keys.has(key)) lowest.set(key, Math.min(lowest.get(key) ?? id, id));
    }
  }
  const copies: ConcurrentCopy[] = [];
  for (const [id, entries] of entriesOf) {
    const keptBy = entries.map((entry) => (entry.key !== undefined && keys.has(entry.key) ? lowest.get(entry.key) : undefined));
    if (!keptBy.every((kept) => kept !== undefined && kept < id)) continue;
    copies.push({ kind: 'ip', client, id, kept: Math.min(...(keptBy as number[])), list, values: entries.map((entry) => entry.value) });
  }
  if (copies.length > 0) {
    const refs = copies.map((copy) => ({ id: copy.id, ruleType: typeOf.get(copy.id) ?? 'ip_range' }));
    await ipBackendOf(options.reads.api).delete(options.reads.api, client, list, refs, options.stop ? { stopRetrying: options.stop } : {});
  }
  return copies;
}
