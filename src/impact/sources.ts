/**
 * Which recorded requests came from an IP-list entry's sources: an address or
 * subnet (the request's source address inside it), a country, a proxy type or
 * a datacenter, for the applications the entry covers.
 */
import { cidrBounds, parseCidr } from '../model/cidr.js';
import { type IpEntry, type IpRuleType } from '../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import type { ClientRequests, SeenRequest } from './requests.js';

/** What an entry needs to be matched: its type, value and applications. */
export type SourceEntry = Pick<IpEntry, 'ruleType' | 'value' | 'pools'>;

const SOURCE_KEYS: Readonly<Record<Exclude<IpRuleType, 'ip_range'>, string>> = { country: 'country', proxy_type: 'proxy_type', datacenter: 'datacenter' };

/** The requests from the entry's sources, in the applications it covers. */
export function requestsFrom(entry: SourceEntry, requests: ClientRequests): SeenRequest[] {
  const found = entry.ruleType === 'ip_range' ? fromRange(entry.value, requests) : [...requests.fromSource(`${SOURCE_KEYS[entry.ruleType]}:${entry.value}`)];
  return entry.pools.includes(ALL_APPLICATIONS_POOL) ? found : found.filter((r) => entry.pools.includes(r.application));
}

/**
 * One list's entries as they would be after the plan, looked up per request
 * (the filtering modes ask, for every request a mode change governs, whether
 * its source is denied, allowed or graylisted).
 */
export class SourceList {
  private readonly exact = new Map<string, (readonly number[])[]>();
  private readonly ranges: { readonly range: ReturnType<typeof cidrBounds>; readonly pools: readonly number[] }[] = [];

  constructor(entries: Iterable<SourceEntry>) {
    for (const entry of entries) {
      const range = entry.ruleType === 'ip_range' ? rangeOf(entry.value) : undefined;
      if (entry.ruleType !== 'ip_range') add(this.exact, `${SOURCE_KEYS[entry.ruleType]}:${entry.value}`, entry.pools);
      else if (range && range.first === range.last) add(this.exact, `ip:${range.family}:${range.first}`, entry.pools);
      else if (range) this.ranges.push({ range, pools: entry.pools });
    }
  }

  /** Whether the request's source is in the list; `requests` numbers its address once. */
  holds(request: SeenRequest, requests: ClientRequests): boolean {
    const covers = (pools: readonly number[]) => pools.includes(ALL_APPLICATIONS_POOL) || pools.includes(request.application);
    const address = request.ip !== undefined ? requests.numberOf(request.ip) : undefined;
    const keys = [
      ...(address ? [`ip:${address.family}:${address.value}`] : []),
      ...(request.country ? [`country:${request.country}`] : []),
      ...(request.proxyType ? [`proxy_type:${request.proxyType}`] : []),
      ...(request.datacenter ? [`datacenter:${request.datacenter}`] : []),
    ];
    if (keys.some((key) => this.exact.get(key)?.some(covers))) return true;
    return address !== undefined && this.ranges.some(({ range, pools }) =>
      range.family === address.family && address.value >= range.first && address.value <= range.last && covers(pools));
  }
}

function add(map: Map<string, (readonly number[])[]>, key: string, pools: readonly number[]): void {
  const list = map.get(key);
  if (list) list.push(pools);
  else map.set(key, [pools]);
}

function fromRange(cidr: string, requests: ClientRequests): SeenRequest[] {
  const range = rangeOf(cidr);
  if (!range) return [];
  if (range.first === range.last) {
    // One address, most often written as the listing writes it: looked up, not scanned.
    const exact = requests.fromSource(`ip:${cidr.replace(/\/(32|128)$/, '')}`);
    if (exact.length > 0) return [...exact];
  }
  return requests.addresses()
    .filter((a) => a.family === range.family && a.value >= range.first && a.value <= range.last)
    .flatMap((a) => [...requests.fromSource(`ip:${a.ip}`)]);
}

function rangeOf(text: string): ReturnType<typeof cidrBounds> | undefined {
  const parsed = parseCidr(text);
  return parsed ? cidrBounds(parsed.cidr) : undefined;
}
