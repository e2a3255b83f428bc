/**
 * Which recorded requests came from an IP-list entry's sources: an address or
 * subnet (the request's source address inside it), a country, a proxy type or
 * a datacenter, for the applications the entry covers.
 */
import { cidrBounds, parseCidr } from '../model/cidr.js';
import { type IpEntry, type IpRuleType } from '../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import { addressKey, type ClientRequests, type RequestRef } from './client-requests.js';

/** What an entry needs to be matched: its type, value and applications. */
export type SourceEntry = Pick<IpEntry, 'ruleType' | 'value' | 'pools'>;

const SOURCE_KEYS: Readonly<Record<Exclude<IpRuleType, 'ip_range'>, string>> = { country: 'country', proxy_type: 'proxy_type', datacenter: 'datacenter' };

/** The requests from the entry's sources, in the applications it covers. */
export function requestsFrom(entry: SourceEntry, requests: ClientRequests): readonly RequestRef[] {
  const found = entry.ruleType === 'ip_range' ? fromRange(entry.value, requests) : requests.fromSource(`${SOURCE_KEYS[entry.ruleType]}:${entry.value}`);
  return entry.pools.includes(ALL_APPLICATIONS_POOL) ? found : found.filter((r) => entry.pools.includes(requests.place(r).application));
}

/**
 * One list's entries as they would be after the plan, looked up per request
 * (the filtering modes ask, for every request a mode change governs, whether
 * its source is denied, allowed or graylisted).
 */
export class SourceList {
  /** By what a request records of its source: its address (as requests.ts numbers it), country, proxy type and datacenter. */
  private readonly exact: Readonly<Record<'ip' | Exclude<IpRuleType, 'ip_range'>, Map<string, (readonly number[])[]>>> = {
    ip: new Map(), country: new Map(), proxy_type: new Map(), datacenter: new Map(),
  };
  private readonly ranges: { readonly range: ReturnType<typeof cidrBounds>; readonly pools: readonly number[] }[] = [];

  constructor(entries: Iterable<SourceEntry>) {
    for (const entry of entries) {
      const range = entry.ruleType === 'ip_range' ? rangeOf(entry.value) : undefined;
      if (entry.ruleType !== 'ip_range') add(this.exact[entry.ruleType], entry.value, entry.pools);
      else if (range && range.first === range.last) add(this.exact.ip, addressKey(range.family, range.first), entry.pools);
      else if (range) this.ranges.push({ range, pools: entry.pools });
    }
  }

  /** Whether the request's source is in the list; `requests` numbers its address once. Builds nothing per request. */
  holds(request: RequestRef, requests: ClientRequests): boolean {
    const application = requests.place(request).application;
    const source = requests.source(request);
    const address = source.ip !== undefined ? requests.numberOf(source.ip) : undefined;
    if (address && covers(this.exact.ip.get(address.key), application)) return true;
    if (source.country !== undefined && covers(this.exact.country.get(source.country), application)) return true;
    if (source.proxyType !== undefined && covers(this.exact.proxy_type.get(source.proxyType), application)) return true;
    if (source.datacenter !== undefined && covers(this.exact.datacenter.get(source.datacenter), application)) return true;
    if (!address) return false;
    for (const { range, pools } of this.ranges) {
      if (range.family === address.family && address.value >= range.first && address.value <= range.last && coversOne(pools, application)) return true;
    }
    return false;
  }
}

/** Whether one of the entries' applications is the request's (or every application). */
function covers(entries: readonly (readonly number[])[] | undefined, application: number): boolean {
  return entries !== undefined && entries.some((pools) => coversOne(pools, application));
}

function coversOne(pools: readonly number[], application: number): boolean {
  return pools.includes(ALL_APPLICATIONS_POOL) || pools.includes(application);
}

function add(map: Map<string, (readonly number[])[]>, key: string, pools: readonly number[]): void {
  const list = map.get(key);
  if (list) list.push(pools);
  else map.set(key, [pools]);
}

function fromRange(cidr: string, requests: ClientRequests): readonly RequestRef[] {
  const range = rangeOf(cidr);
  if (!range) return [];
  if (range.first === range.last) {
    // One address, most often written as the listing writes it: looked up, not scanned.
    const exact = requests.fromSource(`ip:${cidr.replace(/\/(32|128)$/, '')}`);
    if (exact.length > 0) return exact;
  }
  return requests.addresses()
    .filter((a) => a.family === range.family && a.value >= range.first && a.value <= range.last)
    .flatMap((a) => requests.fromSource(`ip:${a.ip}`));
}

function rangeOf(text: string): ReturnType<typeof cidrBounds> | undefined {
  const parsed = parseCidr(text);
  return parsed ? cidrBounds(parsed.cidr) : undefined;
}
