/** What the IP-list listings must show after an apply's IP writes (see apply/settle.ts). */
import { listedIpWriteKey, ipWriteKey } from '../../model/ip-fingerprint.js';
import type { IpChange, CreateIp, AdoptIp } from '../../model/ip-change.js';
import { onAction } from '../../model/by-action.js';
import { plainIpEntry, type IpListName } from '../../model/ip.js';
import type { ListingReads } from '../listing-reads.js';
import type { ListingCheck } from '../listing-check.js';
import { ipListing } from './ip-calls.js';

interface ListExpectations {
  /** Write keys of the values written: what was written, not its identity. */
  readonly keys: string[];
  readonly gone: number[];
}

export function ipListingCheck(): ListingCheck<IpChange> {
  /** By `client|list`: one listing each. */
  const byList = new Map<string, ListExpectations>();
  const of = (client: number, list: string): ListExpectations => {
    const key = `${client}|${list}`;
    let expected = byList.get(key);
    if (!expected) byList.set(key, (expected = { keys: [], gone: [] }));
    return expected;
  };
  return {
    expect(change, { status }) {
      const written = (c: CreateIp | AdoptIp) => {
        // Answered 409: the values were there already, under whatever mark they carry.
        if (status === 'already-done') return;
        for (const entry of c.entries.map(plainIpEntry)) of(c.client, entry.list).keys.push(ipWriteKey(entry));
      };
      onAction(change, {
        create: written,
        adopt: written,
        delete(c) {
          for (const object of c.objects) {
            const list = (object.entries[0] ?? object.moved[0])?.list;
            if (list) of(c.client, list).gone.push(object.id);
          }
        },
      });
    },
    async shown(reads: ListingReads, owner: string) {
      for (const [clientList, expected] of byList) {
        const [client, list] = clientList.split('|') as [string, IpListName];
        const objects = await reads.read(ipListing(Number(client), list));
        const listedIds = new Set(objects.map((entry) => entry.id));
        const listedKeys = new Set(objects.flatMap((entry) => (entry.owner === owner ? (listedIpWriteKey(entry) ?? []) : [])));
        if (expected.keys.some((key) => !listedKeys.has(key))) return false;
        if (expected.gone.some((id) => listedIds.has(id))) return false;
      }
      return true;
    },
  };
}
