import { describe, expect, it } from 'vitest';
import { compareIpIdentity, DATACENTERS, ipKey, IP_LISTS, NEVER_EXPIRES, PROXY_TYPES, type IpEntry } from '../../../src/model/ip.js';

function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('compareIpIdentity', () => {
  it('orders entries as their ipKey text does within a client, and clients by number', () => {
    const random = prng(11);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const values: Record<IpEntry['ruleType'], () => string> = {
      // Prefixes of each other (1.2.3.4/3 and /32), IPv6, and short and long spellings.
      ip_range: () => pick(['1.2.3.4/32', '1.2.3.4/3', '1.2.3.0/24', '10.0.0.0/8', '2001:db8::/32', '2001:db8::1/128', `${Math.floor(random() * 300)}.0.0.0/8`]),
      country: () => pick(['US', 'DE', 'A', 'AB', 'ABC']),
      proxy_type: () => pick(PROXY_TYPES),
      datacenter: () => pick(DATACENTERS),
    };
    const entries: IpEntry[] = Array.from({ length: 3_000 }, () => {
      const ruleType = pick(['ip_range', 'country', 'proxy_type', 'datacenter'] as const);
      return {
        client: pick([4, 30001, 100]), list: pick(IP_LISTS), ruleType, value: values[ruleType](),
        pools: pick([[0], [1], [1, 2], [10], [2], [1, 10]]), expiresAt: NEVER_EXPIRES,
      };
    });
    const byKey = [...entries].sort((a, b) => a.client - b.client || (ipKey(a) < ipKey(b) ? -1 : ipKey(a) > ipKey(b) ? 1 : 0));
    const byFields = [...entries].sort(compareIpIdentity);
    expect(byFields.map(ipKey)).toEqual(byKey.map(ipKey));
  });
});
