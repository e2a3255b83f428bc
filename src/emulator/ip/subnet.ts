/**
 * `ip_range` values: an IPv4/IPv6 address or CIDR. A bare address reads back
 * with its full mask (`1.2.3.4/32`, `::1/128`); prefixes wider than the
 * console allows (/12 for IPv4, /32 for IPv6) and set host bits are refused.
 */
import type IpAddr from 'ipaddr.js';
import { requireCommonJs } from '../../commonjs.js';

const ipaddr = requireCommonJs('ipaddr.js') as typeof IpAddr;

export const MIN_PREFIX = { ipv4: 12, ipv6: 32 } as const;

/** The normalized CIDR, or an error message. */
export function normalizeSubnet(text: string): { cidr: string } | { error: string } {
  const parts = text.trim().split('/');
  if (parts.length > 2) return { error: 'is not a valid IP address or subnet' };
  const [address = '', prefixText] = parts;
  const kind = address.includes(':') ? 'ipv6' : 'ipv4';
  const valid = kind === 'ipv6'
    ? ipaddr.IPv6.isValid(address) && !address.includes('%')
    : ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!valid) return { error: 'is not a valid IP address or subnet' };
  const parsed = ipaddr.parse(address);
  const bits = kind === 'ipv6' ? 128 : 32;
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return { error: 'has an invalid prefix length' };
    prefix = Number(prefixText);
  }
  if (prefix < MIN_PREFIX[kind]) return { error: `prefix must be /${MIN_PREFIX[kind]} or narrower` };
  if (hasHostBits(parsed.toByteArray(), prefix)) return { error: 'has host bits set (not a network address)' };
  return { cidr: `${parsed.toString()}/${prefix}` };
}

function hasHostBits(bytes: number[], prefix: number): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    const hostMask = 0xff >> keep;
    if (((bytes[i] ?? 0) & hostMask) !== 0) return true;
  }
  return false;
}
