/** Rules as the live reader reads them: the hint listing and the credential-stuffing configs, per client. */
import { HINT_PAGE_LIMIT } from '../../api/service.js';
import type { LiveRule } from '../../model/rule.js';
import { listingKey } from '../listing-sizes.js';
import { liveRuleFromHint } from '../normalize-hint.js';
import { fetchAllPages } from '../paging.js';
import { withoutRepeats } from '../rule-listing.js';
import { lastById, normalized, type LiveClass } from './class.js';

export const RULE_READER: LiveClass<LiveRule> = {
  read(context) {
    const { api, signal, intern } = context;
    const listed: LiveRule[][] = [];
    /** Read from their own endpoint; a token with more rights also sees them in the hint listing. */
    const credentials: LiveRule[][] = [];
    return {
      listings: (client) => [
        async () => {
          const key = listingKey(client, 'rules');
          // Each page is normalized as it arrives; the filter is by client, but trust nothing: keep only what was asked for.
          const read = await fetchAllPages(
            async (offset, limit) => (await api.listHints(client, offset, limit, { signal }))
              .map((hint) => normalized(hint.id, hint.clientid === client ? liveRuleFromHint(hint, intern) : undefined)),
            HINT_PAGE_LIMIT,
            context.paging(key, `rule listing of client ${client}`),
          );
          context.listed(key, read.length);
          listed.push(lastById(read).flatMap((record) => record.objects));
        },
        async () => {
          const hints = await context.schedule(() => api.listCredentialRules(client, { signal }));
          credentials.push(hints.flatMap((hint) => (hint.clientid === client ? (liveRuleFromHint(hint, intern) ?? []) : [])));
        },
      ],
      result: () => withoutRepeats([...listed.flat(), ...credentials.flat()]).sort((a, b) => a.id - b.id),
    };
  },
};
