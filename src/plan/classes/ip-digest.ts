/** An IP entry's part of the state digests (digest.ts): its value and attributes, and a listed entry's object, its size and owner. */
import type { IpEntry, LiveIpEntry } from '../../model/ip.js';
import type { Hash128 } from '../hash128.js';
import type { ClassDigest } from './class.js';

/** What `ipKey` holds, then expiry and reason (none and empty told apart). */
function hashIp(hash: Hash128, entry: IpEntry): Hash128 {
  hash.number(entry.client);
  hash.string(entry.list);
  hash.string(entry.ruleType);
  hash.string(entry.value);
  const pools = entry.pools;
  hash.word(pools.length);
  for (let i = 0; i < pools.length; i++) hash.number(pools[i] as number);
  hash.number(entry.expiresAt);
  hash.optionalString(entry.reason);
  return hash;
}

export const IP_DIGEST: ClassDigest<IpEntry, LiveIpEntry> = {
  label: 'ip',
  desired: (hash, entry) => hashIp(hash, entry),
  live: (hash, entry) => {
    hash.number(entry.id);
    hash.number(entry.objectSize);
    hash.optionalString(entry.owner);
    return hashIp(hash, entry);
  },
};
