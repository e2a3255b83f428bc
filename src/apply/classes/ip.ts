/** IP-list entries as the applier writes them: one call per object created, one per client's deletes. */
import { runBounded } from '../../concurrency.js';
import { InternalError } from '../../errors.js';
import type { IpChange, DeleteIp } from '../../model/ip-change.js';
import { onAction } from '../../model/by-action.js';
import { adoptIp, createIp, deleteIp } from './ip-calls.js';
import { runChange } from '../run-change.js';
import type { ApplyClass } from './class.js';
import { ipCopyFinder } from './ip-copies.js';
import { ipListingCheck } from './ip-listing-check.js';

export const IP_WRITES: ApplyClass<IpChange> = {
  write: (change, context) => onAction(change, {
    create: (c) => createIp(c.entries, c.force, context),
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
      const done = await deleteIp(change.client, ids, run.context);
      return kept === 0 ? done : { ...done, detail: `${kept} object(s) kept: a create they depend on failed` };
    })), run.concurrency);
  },

  waitsFor: () => undefined,
  referencedId: () => undefined,
  listingCheck: ipListingCheck,
  copyFinder: ipCopyFinder,
};
