/**
 * `ips` values: an IPv4/IPv6 address or CIDR → canonical CIDR (model/cidr.ts,
 * shared with the live reader), with the service's limits on prefix width.
 * Host bits set (`10.0.0.5/24`) are a warning, not an error: the meaning is
 * unambiguous and the canonical form (`10.0.0.0/24`) is what gets created.
 */
import ipaddr from 'ipaddr.js';
import { parseCidr } from '../model/cidr.js';

/** The console's limits: no IPv4 subnet wider than /12, no IPv6 wider than /32. */
export const MIN_PREFIX = { ipv4: 12, ipv6: 32 } as const;

export type AddressCheck =
  | { ok: true; cidr: string; hostBitsSet: boolean }
  | { ok: false; code: 'invalid-cidr' | 'prefix-too-wide'; message: string };

export function checkAddress(input: string): AddressCheck {
  const text = input.trim();
  const parsed = text.includes('%') ? undefined : parseCidr(text);
  if (!parsed) {
    return { ok: false, code: 'invalid-cidr', message: `"${input}" is not an IPv4/IPv6 address or CIDR subnet` };
  }
  const min = MIN_PREFIX[parsed.family];
  if (parsed.prefix < min) {
    return {
      ok: false,
      code: 'prefix-too-wide',
      message: `subnet "${input}" is wider than /${min}, the widest ${parsed.family === 'ipv4' ? 'IPv4' : 'IPv6'} prefix the service accepts`,
    };
  }
  return { ok: true, cidr: parsed.cidr, hostBitsSet: parsed.hostBitsSet };
}

/** First and last address of a canonical CIDR, as integers of the same family. */
export function cidrRange(cidr: string): { family: string; first: bigint; last: bigint } {
  // Canonical input: pick the family directly instead of ipaddr's try-both parse.
  const [address, prefix] = cidr.includes(':') ? ipaddr.IPv6.parseCIDR(cidr) : ipaddr.IPv4.parseCIDR(cidr);
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  let value = 0n;
  for (const byte of address.toByteArray()) value = (value << 8n) | BigInt(byte);
  const size = 1n << BigInt(bits - prefix);
  const first = value - (value % size);
  return { family: address.kind(), first, last: first + size - 1n };
}
