/**
 * Which of the service's two IP-list APIs an account's lists are read and
 * written through: `v4` (`/v4/ip_rules`, the one the service's docs show) or
 * `groups` (`/v1/blocklist/clients/{C}/groups` and `/access_rules`, which
 * both of its public clients use since March 2026). Both show the same stored
 * lists. The default while the service documents v4.
 */
export const IP_APIS = ['v4', 'groups'] as const;
export type IpApiName = (typeof IP_APIS)[number];
export const DEFAULT_IP_API: IpApiName = 'v4';

export function isIpApiName(value: unknown): value is IpApiName {
  return typeof value === 'string' && (IP_APIS as readonly string[]).includes(value);
}

/**
 * The calls one create of `values` values makes: v4 writes them in one
 * object; the groups API makes one group per value (live/ip-backends/groups.ts
 * says why). The plan counts with this, the backends call with it.
 */
export function ipCreateCalls(api: IpApiName, values: number): number {
  return api === 'groups' ? values : 1;
}
