/** IP-list entries as the live reader reads them: each of a client's three lists, every object split into its values. */
import { IP_LISTS, ipGroupKey, type DesiredIpEntry, type LiveIpEntry } from '../../model/ip.js';
import { ipBackendOf } from '../ip-backends/index.js';
import { listingKey, type ListingKey } from '../listing-key.js';
import type { BuiltInLiveClass } from './class.js';
import { IP_JOURNAL } from './ip-journal.js';

export const IP_READER: BuiltInLiveClass<LiveIpEntry, DesiredIpEntry> = {
  journal: IP_JOURNAL,
  listingNames: IP_LISTS,
  /**
   * One IP object per address or subnet (the API creates one per request), and
   * at least one per group of country, proxy or datacenter values that one
   * request carries (the listing may split it).
   */
  listedAtLeast(declared) {
    const sizes = new Map<ListingKey, number>();
    const groups = new Set<string>();
    for (const entry of declared) {
      if (entry.ruleType !== 'ip_range') {
        const group = ipGroupKey(entry);
        if (groups.has(group)) continue;
        groups.add(group);
      }
      const key = listingKey(entry.client, entry.list);
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    return sizes;
  },
  read(context) {
    const { api, signal, intern } = context;
    const listed: LiveIpEntry[][] = [];
    return {
      listings: (client) => IP_LISTS.map((list) => async () => {
        const key = listingKey(client, list);
        listed.push(await ipBackendOf(api).list(api, client, list, {
          intern,
          onCreated: (seconds) => context.changed(client, seconds),
          signal,
          paging: context.paging(key, `${list} IP list of client ${client}`),
          onListed: (objects) => context.listed(key, objects),
        }));
      }),
      result: () => listed.flat().sort((a, b) => a.id - b.id || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)),
    };
  },
};
