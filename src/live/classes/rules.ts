/** Rules as the live reader reads them: every rule of each client, through the one rule listing (rule-listing.ts). */
import type { DesiredRule, LiveRule } from '../../model/rule.js';
import { listingKey, type ListingKey } from '../listing-key.js';
import { liveRuleFromHint } from '../normalize-hint.js';
import { listClientRules } from '../rule-listing.js';
import type { BuiltInLiveClass } from './class.js';
import { RULE_JOURNAL } from './rule-journal.js';

export const RULE_READER: BuiltInLiveClass<LiveRule, DesiredRule> = {
  journal: RULE_JOURNAL,
  listingNames: ['rules'],
  // One rule object per rule.
  listedAtLeast(declared) {
    const sizes = new Map<ListingKey, number>();
    for (const rule of declared) {
      const key = listingKey(rule.client, 'rules');
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    return sizes;
  },
  read(context) {
    const { api, signal, intern } = context;
    const listed: LiveRule[][] = [];
    return {
      listings: (client) => [
        async () => {
          const key = listingKey(client, 'rules');
          listed.push(await listClientRules(api, client, (hint) => {
            context.changed(client, hint.updated_at);
            return liveRuleFromHint(hint, intern);
          }, {
            signal,
            paging: context.paging(key, `rule listing of client ${client}`),
            schedule: context.schedule,
            onListed: (records) => context.listed(key, records),
          }));
        },
      ],
      result: () => listed.flat().sort((a, b) => a.id - b.id),
    };
  },
};
