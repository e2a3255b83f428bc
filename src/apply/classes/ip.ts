/** IP-list entries as the applier writes them: one call per object created, one per client's deletes. */
import { runBounded } from '../../concurrency.js';
import { InternalError } from '../../errors.js';
import type { IpChange } from '../../model/change.js';
import { adoptIp, createIp, deleteIp } from '../execute.js';
import { runChange } from '../run-change.js';
import type { ApplyClass } from './class.js';
import { ipCopyFinder } from './ip-copies.js';
import { ipListingCheck } from './ip-listing-check.js';

export const IP_WRITES: ApplyClass<IpChange> = {
  write(change, context) {
    if (change.action === 'create') return createIp(change.entries, change.force, context);
    if (change.action === 'adopt') return adoptIp(change, context);
    throw new InternalError('IP deletes run through runDeletes');
  },

  async runDeletes(items, run, blocked) {
    await runBounded(items.map((item) => () => runChange(item, run, async () => {
      const { change } = item;
      if (change.action !== 'delete') throw new InternalError(`an IP ${change.action} among the deletes`);
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
