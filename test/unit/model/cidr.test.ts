import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { canonicalCidr, cidrBounds, ipv4Bounds, parseCidr, type ParsedCidr } from '../../../src/model/cidr.js';

/**
 * parseCidr before the IPv4 fast path: every input through ipaddr.js, with the
 * two rules ipaddr.js does not know: an embedded dotted quad is the address's
 * last 32 bits (not IPv4-mapped), and a prefix has no leading zero.
 */
function referenceParse(text: string): ParsedCidr | undefined {
  let input = text.trim();
  const embedded = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(\/.*)?$/.exec(input);
  if (embedded) {
    const parts = embedded.slice(2, 6);
    if (parts.some((p) => Number(p) > 255 || (p.length > 1 && p.startsWith('0')))) return undefined;
    const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
    input = `${embedded[1]}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}${embedded[6] ?? ''}`;
  }
  if (/\/0\d/.test(input)) return undefined;
  try {
    const [address, prefix] = input.includes('/')
      ? ipaddr.parseCIDR(input)
      : (() => {
          const parsed = ipaddr.parse(input);
          return [parsed, parsed.kind() === 'ipv4' ? 32 : 128] as const;
        })();
    if (input.includes('/') && !/\/\d{1,3}$/.test(input)) return undefined;
    const family = address.kind();
    if (family === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(input.split('/')[0] ?? '')) return undefined;
    const network =
      family === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
        : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
    const hostBitsSet = network.toString() !== address.toString();
    return { cidr: `${network.toString()}/${prefix}`, family, prefix, hostBitsSet };
  } catch {
    return undefined;
  }
}

/** cidrRange before the fast path. */
function referenceBounds(cidr: string): { family: string; first: bigint; last: bigint } {
  const [address, prefix] = cidr.includes(':') ? ipaddr.IPv6.parseCIDR(cidr) : ipaddr.IPv4.parseCIDR(cidr);
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  let value = 0n;
  for (const byte of address.toByteArray()) value = (value << 8n) | BigInt(byte);
  const size = 1n << BigInt(bits - prefix);
  const first = value - (value % size);
  return { family: address.kind(), first, last: first + size - 1n };
}

function outcome<T>(fn: () => T): T | string {
  try {
    return fn();
  } catch {
    return 'throws';
  }
}

function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Random address-like text: mostly plausible IPv4, with every odd spelling mixed in. */
function randomInput(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const octet = (): string => {
    const n = random() < 0.5 ? Math.floor(random() * 256) : pick([0, 1, 9, 10, 99, 100, 199, 200, 249, 250, 255, 256, 300]);
    const spelling = random();
    if (spelling < 0.03) return `0${n}`;
    if (spelling < 0.04) return `0x${n.toString(16)}`;
    if (spelling < 0.045) return '';
    return String(n);
  };
  const parts = random() < 0.9 ? 4 : pick([1, 2, 3, 5]);
  let text = Array.from({ length: parts }, octet).join('.');
  if (random() < 0.05) text = `::ffff:${text}`;
  if (random() < 0.03) text = `::${text}`;
  if (random() < 0.05) text = pick(['2001:db8::1', '2001:DB8:0:0::', '::', '::1', 'fe80::1', '1::2::3', ':::', 'ffff::ffff']);
  const withPrefix = random();
  if (withPrefix < 0.6) {
    const prefix = pick([0, 1, 8, 12, 16, 24, 29, 30, 31, 32, 33, 40, 64, 128, 129, 999, Math.floor(random() * 33)]);
    const spelled = pick([String(prefix), String(prefix), String(prefix), `0${prefix}`, `00${prefix}`, `+${prefix}`, ` ${prefix}`, '', `${prefix}.0`]);
    text = `${text}/${spelled}`;
  } else if (withPrefix < 0.62) text = `${text}/`;
  const space = random();
  if (space < 0.05) text = ` ${text}`;
  else if (space < 0.1) text = `${text}\t`;
  else if (space < 0.12) text = text.replace('.', ' .');
  return text;
}

describe('IPv6 with an embedded IPv4 address, and prefixes with a leading zero', () => {
  it('keeps ::1.2.3.4 IPv4-compatible, apart from the IPv4-mapped ::ffff:1.2.3.4', () => {
    expect(parseCidr('::1.2.3.4')?.cidr).toBe('::102:304/128');
    expect(parseCidr('::1.2.3.4/128')?.cidr).toBe('::102:304/128');
    expect(parseCidr('::ffff:1.2.3.4')?.cidr).toBe('::ffff:102:304/128');
    expect(parseCidr('64:ff9b::192.0.2.33')?.cidr).toBe('64:ff9b::c000:221/128');
    expect(parseCidr('::1.2.3.04')).toBeUndefined();
    expect(parseCidr('::1.2.3.256')).toBeUndefined();
  });

  it('refuses /024 and /0128 instead of reading /24 and /128', () => {
    for (const text of ['1.2.3.0/024', '10.0.0.0/08', '2001:db8::/032', '::/0128', '1.2.3.4/00']) expect(parseCidr(text), text).toBeUndefined();
    expect(parseCidr('0.0.0.0/0')?.cidr).toBe('0.0.0.0/0');
    expect(parseCidr('::/0')?.cidr).toBe('::/0');
  });
});

describe('parseCidr', () => {
  it('agrees with the general parser on fixed odd spellings', () => {
    const inputs = [
      '1.2.3.4', '1.2.3.4/32', '10.1.2.3/8', '0.0.0.0/0', '255.255.255.255', '255.255.255.255/0', '1.2.3.4/0', '1.2.3.4/33',
      '1.2.3.4/012', '1.2.3.4/00', '1.2.3.4/', '1.2.3', '1.2', '1', '010.1.2.3', '1.2.3.04', '0x1.2.3.4', '256.1.1.1',
      ' 1.2.3.4 ', '1.2.3.4 /24', '1.2.3.4/ 24', '::ffff:1.2.3.4', '::ffff:1.2.3.0/120', '::1.2.3.4', '2001:DB8::1',
      '2001:db8::1/32', '2001:db8::/129', 'fe80::1%eth0', '', '/', 'nonsense', '1.2.3.4/32/32', '1.2.3.4.5', '1..2.3',
    ];
    for (const input of inputs) expect(parseCidr(input), input).toEqual(referenceParse(input));
  });

  it('agrees with the general parser on 20,000 random inputs', () => {
    const random = prng(4242);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const input = randomInput(random);
      const expected = referenceParse(input);
      if (expected) accepted++;
      expect(parseCidr(input), input).toEqual(expected);
    }
    // The generator must exercise both outcomes, not only rejections.
    expect(accepted).toBeGreaterThan(5_000);
    expect(accepted).toBeLessThan(19_000);
  });

  it('agrees on every prefix of random valid IPv4 addresses', () => {
    const random = prng(7);
    for (let i = 0; i < 500; i++) {
      const address = Array.from({ length: 4 }, () => Math.floor(random() * 256)).join('.');
      for (let prefix = 0; prefix <= 33; prefix++) {
        const input = `${address}/${prefix}`;
        expect(parseCidr(input), input).toEqual(referenceParse(input));
      }
    }
  });
});

describe('cidrBounds', () => {
  it('agrees with the general parser on canonical and odd CIDRs', () => {
    const random = prng(99);
    const inputs = ['10.0.0.0/8', '0.0.0.0/0', '255.255.255.255/32', '1.2.3.4', '2001:db8::/32', '::ffff:1.2.3.0/120', '1.2.3.4/33'];
    for (let i = 0; i < 5_000; i++) inputs.push(randomInput(random));
    for (const input of inputs) expect(outcome(() => cidrBounds(input)), input).toEqual(outcome(() => referenceBounds(input)));
  });
});

describe('ipv4Bounds', () => {
  it('reads canonical IPv4 CIDRs as cidrBounds does, and declines anything else', () => {
    const random = prng(5);
    const inputs = ['10.0.0.0/8', '0.0.0.0/0', '255.255.255.255/32', '1.2.3.4', '1.2.3.4/33', '01.2.3.4/8', '1.2.3.4/08', '1.2.3/8', '1.2.3.4.5/8', '256.1.1.1/8', '1.2.3.4/', '2001:db8::/32', ' 1.2.3.4/32'];
    for (let i = 0; i < 5_000; i++) inputs.push(randomInput(random));
    for (const input of inputs) {
      const strict = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/(?:3[0-2]|[12]?\d)$/.test(input);
      const bounds = ipv4Bounds(input);
      if (!strict) {
        expect(bounds, input).toBeUndefined();
        continue;
      }
      const reference = cidrBounds(input);
      expect(bounds, input).toEqual({ first: Number(reference.first), last: Number(reference.last) });
    }
  });
});

describe('canonicalCidr', () => {
  it('gives what the general parser gives, canonical input returned as it is', () => {
    const random = prng(17);
    const inputs = ['10.0.0.0/8', '10.0.0.1/8', '1.2.3.4', '1.2.3.4/32', '01.2.3.4/32', '2001:db8::/32', 'nonsense'];
    for (let i = 0; i < 5_000; i++) inputs.push(randomInput(random));
    for (const input of inputs) expect(canonicalCidr(input), input).toBe(parseCidr(input)?.cidr ?? input);
  });
});
