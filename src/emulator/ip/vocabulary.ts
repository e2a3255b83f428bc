/**
 * The service's own words for IP lists, as the emulator reads them from the
 * service's documentation. Kept apart from the client's constants on purpose:
 * two independent readings of the same facts are what lets a test catch a
 * client that got one wrong.
 */

/** The lists: deny, allow and gray in the service's words. */
export const IP_LISTS = ['black', 'white', 'gray'] as const;
export type IpListName = (typeof IP_LISTS)[number];

/** What an IP-list object holds: a subnet, or countries, proxy types or datacenters. */
export const IP_RULE_TYPES = ['ip_range', 'country', 'proxy_type', 'datacenter'] as const;
export type IpRuleType = (typeof IP_RULE_TYPES)[number];

/** Seven, as the service's provider validates them (data-center hosting and mobile IPs beside the five the docs list). */
export const PROXY_TYPES = ['DCH', 'MIP', 'PUB', 'SES', 'TOR', 'VPN', 'WEB'] as const;

/** The datacenters the service's spec lists. */
export const DATACENTERS = [
  'alibaba', 'aws', 'azure', 'gce', 'hetzner', 'huawei', 'ibm', 'linode', 'oracle', 'ovh', 'plusserver', 'rackspace', 'tencent',
] as const;

/** `expired_at` of an object that never expires. */
export const NEVER_EXPIRES = 33223139044;
