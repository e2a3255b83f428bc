/** IP-list entries as the live reader reads them: each of a client's three lists, every object split into its values. */
import { IP_LISTS, type LiveIpEntry } from '../../model/ip.js';
import { listIpObjects } from '../ip-listing.js';
import { listingKey } from '../listing-sizes.js';
import { liveEntriesFromIpRule } from '../normalize-ip-rule.js';
import type { LiveClass } from './class.js';

export const IP_READER: LiveClass<LiveIpEntry> = {
  read(context) {
    const { api, signal, intern } = context;
    const listed: LiveIpEntry[][] = [];
    return {
      listings: (client) => IP_LISTS.map((list) => async () => {
        const key = listingKey(client, list);
        listed.push(await listIpObjects(api, client, list, (object) => liveEntriesFromIpRule(object, intern), {
          signal,
          paging: context.paging(key, `${list} IP list of client ${client}`),
          onListed: (objects) => context.listed(key, objects),
        }));
      }),
      result: () => listed.flat().sort((a, b) => a.id - b.id || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)),
    };
  },
};
