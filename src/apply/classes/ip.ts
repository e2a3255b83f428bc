/** IP-list entries as the applier writes them: one call per object created, one per client and list for deletes. */
import { runBounded } from '../../concurrency.js';
import { InternalError } from '../../errors.js';
import { deletedIdsByList, type IpChange, type DeleteIp } from '../../model/ip-change.js';
import { onAction } from '../../model/by-action.js';
import { adoptIp, createIp, deleteIp } from './ip-calls.js';
import { runChange } from '../run-change.js';
import type { BuiltInApplyClass } from './class.js';
import { ipCopyFinder } from './ip-copies.js';
import { ipListingCheck } from './ip-listing-check.js';

export const IP_WRITES: BuiltInApplyClass<IpChange> = {
  write: (change, context) => onAction(change, {
    create: (c) => createIp(c.entries, c.force, context, c.replaces),
    adopt: (c) => adoptIp(c, context),
    delete: () => {
      throw new InternalError('IP deletes run through runDeletes');
    },
  }),

  async runDeletes(items, run, blocked) {
    await runBounded(items.map((item) => () => runChange(item, run, async () => {
      const notADelete = (c: IpChange): never => {
        throw new InternalError(`an IP ${c.action} among the deletes`);
      };
      const change = onAction<IpChange, DeleteIp>(item.change, { create: notADelete, adopt: notADelete, delete: (c) => c });
      // Objects whose values a failed forced create should have moved out first stay.
      const all = change.objects.map((o) => o.id);
      const ids = all.filter((id) => id >= 0 && !blocked.has(id));
      if (ids.length === 0) return { status: 'skipped', detail: 'every object is kept: a create it depends on failed' };
      const kept = all.length - ids.length;
      const going = new Set(ids);
      let done: Awaited<ReturnType<typeof deleteIp>> | undefined;
      const typeOf = new Map(change.objects.map((object) => [object.id, (object.entries[0] ?? object.moved[0])?.ruleType ?? 'ip_range'] as const));
      for (const [list, listed] of deletedIdsByList(change)) {
        const batch = listed.filter((id) => going.has(id)).map((id) => ({ id, ruleType: typeOf.get(id) ?? 'ip_range' }));
        if (batch.length === 0) continue;
        const answer = await deleteIp(change.client, list, batch, run.context);
        // Applied when any list's call deleted something.
        done = done?.status === 'applied' ? done : answer;
      }
      if (!done) return { status: 'skipped', detail: 'every object is kept: a create it depends on failed' };
      return kept === 0 ? done : { ...done, detail: `${kept} object(s) kept: a create they depend on failed` };
    })), run.concurrency);
  },

  waitsFor: () => undefined,
  referencedId: () => undefined,
  listingCheck: ipListingCheck,
  copyFinder: ipCopyFinder,
};
