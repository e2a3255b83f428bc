/**
 * `ips` values: an IPv4/IPv6 address or CIDR → canonical CIDR (model/cidr.ts,
 * shared with the live reader), with the service's limits on prefix width.
 * Host bits set (`10.0.0.5/24`) are a warning, not an error: the meaning is
 * unambiguous and the canonical form (`10.0.0.0/24`) is what gets created.
 */
import { cidrBounds, parseCidr } from '../model/cidr.js';

/** The console's limits: no IPv4 subnet wider than /12, no IPv6 wider than /32. */
export const MIN_PREFIX = { ipv4: 12, ipv6: 32 } as const;

/**
 * Below this IPv4 prefix a subnet is accepted with a warning: the service's
 * former client refused IPv4 prefixes shorter than /20, and no source shows the
 * service's own bound, so a wide subnet may be refused (or may block far more
 * than meant).
 */
export const WARN_BELOW_IPV4_PREFIX = 20;

export type AddressCheck =
  | { ok: true; cidr: string; hostBitsSet: boolean; wide: boolean }
  | { ok: false; code: 'invalid-cidr' | 'prefix-too-wide'; message: string };

export function checkAddress(input: string): AddressCheck {
  const text = input.trim();
  const parsed = text.includes('%') ? undefined : parseCidr(text);
  const leadingZero = parsed ? null : /\/0\d+$/.exec(text);
  if (!parsed && leadingZero) {
    const prefix = `/${Number(leadingZero[0].slice(1))}`;
    return { ok: false, code: 'invalid-cidr', message: `"${input}": a prefix length has no leading zero (did you mean ${prefix}?)` };
  }
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
  return { ok: true, cidr: parsed.cidr, hostBitsSet: parsed.hostBitsSet, wide: parsed.family === 'ipv4' && parsed.prefix < WARN_BELOW_IPV4_PREFIX };
}

/** First and last address of a canonical CIDR, as integers of the same family. */
export function cidrRange(cidr: string): { family: string; first: bigint; last: bigint } {
  return cidrBounds(cidr);
}
