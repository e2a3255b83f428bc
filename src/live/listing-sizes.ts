/**
 * How many objects each listing of a read is expected to hold, so its pages
 * can be requested at once (paging.ts). A guess too low costs time (the pages
 * past it are read one after another), a guess too high costs calls (pages
 * requested past the end), so the desired state gives a count the listing of a
 * converged account cannot be below, and the daemon adds what it listed last
 * cycle (foreign objects, values still to delete).
 */
import { IP_LISTS, ipGroupKey, type IpListName } from '../model/ip.js';
import type { DesiredState } from '../model/state.js';

/** One listing of a read: a client's rules, or one of its IP lists. */
export type ListingKey = `${number}:rules` | `${number}:${IpListName}`;

export const listingKey = (client: number, listing: 'rules' | IpListName): ListingKey => `${client}:${listing}`;

export type ListingSizes = ReadonlyMap<ListingKey, number>;

/**
 * The fewest objects the listings hold once the account matches the desired
 * state: one rule object per rule; one IP object per address or subnet (the
 * API creates one per request), and at least one per group of country, proxy
 * or datacenter values that one request carries (the listing may split it).
 */
export function desiredListingSizes(desired: DesiredState): Map<ListingKey, number> {
  const sizes = new Map<ListingKey, number>();
  const add = (key: ListingKey) => sizes.set(key, (sizes.get(key) ?? 0) + 1);
  for (const client of desired.clients) {
    sizes.set(listingKey(client, 'rules'), 0);
    for (const list of IP_LISTS) sizes.set(listingKey(client, list), 0);
  }
  for (const rule of desired.rules) add(listingKey(rule.client, 'rules'));
  const groups = new Set<string>();
  for (const entry of desired.ipEntries) {
    if (entry.ruleType !== 'ip_range') {
      const group = ipGroupKey(entry);
      if (groups.has(group)) continue;
      groups.add(group);
    }
    add(listingKey(entry.client, entry.list));
  }
  return sizes;
}

/** Per listing, the larger of the desired state's count and what the last read listed (the daemon's memory of it). */
export function expectedListingSizes(desired: DesiredState, lastListed: ListingSizes = new Map()): ListingSizes {
  const sizes = desiredListingSizes(desired);
  for (const [key, count] of sizes) sizes.set(key, Math.max(count, lastListed.get(key) ?? 0));
  return sizes;
}

/** What the listings held, the last read's over the earlier's: a listing no longer read keeps its last size. */
export function rememberListed(earlier: ListingSizes, read: ListingSizes): ListingSizes {
  return new Map([...earlier, ...read]);
}
