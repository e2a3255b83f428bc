/**
 * IP addresses and subnets in one canonical spelling: network address with
 * host bits cleared, the mask always present, IPv6 compressed and lower-case.
 */
import ipaddr from 'ipaddr.js';

export interface ParsedCidr {
  /** Canonical text, e.g. `198.51.100.0/24`, `2001:db8::/32`. */
  readonly cidr: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly prefix: number;
  /** True when the input had host bits set (the canonical form clears them). */
  readonly hostBitsSet: boolean;
}

/** Parses an address or CIDR; undefined when it is neither. */
export function parseCidr(text: string): ParsedCidr | undefined {
  const input = text.trim();
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

/** Canonical CIDR text, or the input unchanged when it does not parse. */
export function canonicalCidr(text: string): string {
  return parseCidr(text)?.cidr ?? text;
}

/** Whether two canonical subnets share any address. */
export function cidrsOverlap(a: string, b: string): boolean {
  try {
    const [addressA, prefixA] = ipaddr.parseCIDR(a);
    const [addressB, prefixB] = ipaddr.parseCIDR(b);
    if (addressA.kind() !== addressB.kind()) return false;
    const shorter = Math.min(prefixA, prefixB);
    return addressA.match(addressB as never, shorter);
  } catch {
    return false;
  }
}
