import { describe, expect, it } from 'vitest';
import { canonicalSubnet } from '../../../src/live/ip-backends/entries.js';
import { canonicalCidr } from '../../../src/model/cidr.js';

describe('canonicalSubnet (the listing fast path)', () => {
  it('returns canonical IPv4 subnets unchanged', () => {
    for (const subnet of ['1.2.3.4/32', '10.0.0.0/8', '0.0.0.0/0', '255.255.255.255/32', '198.51.100.0/24', '172.16.0.0/12']) {
      expect(canonicalSubnet(subnet)).toBe(subnet);
    }
  });

  it('falls back to canonicalCidr for everything else, with the same result', () => {
    const inputs = [
      '1.2.3.4', '10.1.2.3/8', '192.168.1.1/24', '010.0.0.1/32', '1.2.3.4/033', ' 1.2.3.4/32', '256.1.1.1/32', '1.2.3/24',
      '2001:DB8::/32', '2001:db8:0:0::1/128', '::1', 'not-an-address', '1.2.3.4/33', '1.2.3.4/', '',
    ];
    for (const input of inputs) expect(canonicalSubnet(input)).toBe(canonicalCidr(input));
  });

  it('agrees with canonicalCidr on random IPv4 subnets', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5_000; i++) {
      const octets = Array.from({ length: 4 }, () => Math.floor(random() * 256));
      const prefix = Math.floor(random() * 33);
      const input = `${octets.join('.')}/${prefix}`;
      expect(canonicalSubnet(input)).toBe(canonicalCidr(input));
      const network = canonicalCidr(input);
      expect(canonicalSubnet(network)).toBe(network);
    }
  });
});
