/** IP-list entries as the live reader reads them: each of a client's three lists, every object split into its values. */
import { IP_RULE_PAGE_LIMIT } from '../../api/service.js';
import { IP_LISTS, type LiveIpEntry } from '../../model/ip.js';
import { listingKey } from '../listing-sizes.js';
import { liveEntriesFromIpRule } from '../normalize-ip-rule.js';
import { fetchAllPages } from '../paging.js';
import { lastById, normalized, type LiveClass } from './class.js';

export const IP_READER: LiveClass<LiveIpEntry> = {
  read(context) {
    const { api, signal, intern } = context;
    const listed: LiveIpEntry[][] = [];
    return {
      listings: (client) => IP_LISTS.map((list) => async () => {
        const key = listingKey(client, list);
        // Each page is normalized as it arrives; the filters are by client and list, but trust nothing.
        const read = await fetchAllPages(
          async (offset, limit) => (await api.listIpRules(client, list, offset, limit, { signal }))
            .map((object) => normalized(object.id, object.clientid === client && object.list === list ? liveEntriesFromIpRule(object, intern) : [])),
          IP_RULE_PAGE_LIMIT,
          context.paging(key, `${list} IP list of client ${client}`),
        );
        context.listed(key, read.length);
        listed.push(lastById(read).flatMap((record) => record.objects));
      }),
      result: () => listed.flat().sort((a, b) => a.id - b.id || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)),
    };
  },
};
