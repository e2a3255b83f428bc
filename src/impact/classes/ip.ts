/** An IP-list change as the impact sees it (class.ts). */
import { ALL_APPLICATIONS_POOL } from '../../model/application.js';
import { onAction, type ByAction } from '../../model/by-action.js';
import type { IpEntry } from '../../model/ip.js';
import type { IpChange } from '../../model/ip-change.js';
import type { ImpactClass, Leaves } from './class.js';

/** A forced create or an adoption moves values between objects: the objects they leave stay, with the values' other copies. */
const LEAVES: ByAction<IpChange, Leaves<IpEntry>> = {
  create: (change) => ({ gone: [], put: change.entries }),
  adopt: (change) => ({ gone: [], put: change.entries }),
  delete: (change) => ({ gone: change.objects.map((object) => object.id), put: [] }),
};

/** The pools an IP change writes, or those its deleted values were in. */
const POOLS: ByAction<IpChange, readonly number[]> = {
  create: (change) => change.pools,
  adopt: (change) => change.pools,
  delete: (change) => change.objects.flatMap((object) => object.entries.flatMap((entry) => entry.pools)),
};

export const IP_IMPACT: ImpactClass<IpChange, IpEntry> = {
  leaves: (change) => onAction(change, LEAVES),
  applications: (change) => {
    const pools = onAction(change, POOLS);
    return pools.includes(ALL_APPLICATIONS_POOL) ? undefined : pools;
  },
  experimental: () => false,
};
