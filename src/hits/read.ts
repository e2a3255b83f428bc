/**
 * Reading what the service saw: its hits (`POST /v1/objects/hit`), every page
 * through the client's retries and errors, filtered as the service's own
 * client filters them. The one module that knows where hits come from, so a
 * second source (the service's newer attack-vector listing) can sit beside it.
 *
 * The filter, as the service's Go client and Terraform provider send it
 * (the Go client's get_hits.go `HitFilter`; the provider's data_source_hits.go
 * `fetchDirectHits` and `fetchRelatedHitsByAttackIDs`): on every read the
 * hits marked false positive, experimental (unless asked for) and API-abuse
 * events left out, within a time window, newest first (`order_desc`); a read
 * by request (`request_id` a string, one request per listing) and a window
 * read leave `warn` and `infoleak` out; a read of an attack's other hits
 * (`attackid`, a list of `[index, id]` pairs) takes the provider's allow-list
 * of attack types and leaves the service's own scanner out.
 */
import { HIT_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { ApiProtocolError } from '../errors.js';
import { splitPath } from '../model/request-path.js';
import type { RecordedRequest } from '../model/scope-match.js';

/** A hit as Rampart reads it: the fields scoping, grouping and evidence need. */
export interface Hit {
  /** `[index, id]`, for `action/by_hit`. */
  readonly id: readonly [string, string];
  readonly client: number;
  readonly requestId: string;
  readonly attackId: readonly [string, string];
  /** The attack type. */
  readonly type: string;
  readonly stamps: readonly number[];
  /** Flat, like a rule's point in a listing. */
  readonly point: readonly (string | number)[];
  /** The application (`poolid`): 0 names none, -1 is the default application. */
  readonly application: number;
  readonly domain: string;
  readonly path: string;
  /** Seconds since the epoch. */
  readonly time: number;
  /** What the detector flagged at the point (the payload), when the listing gives it. */
  readonly value?: string;
  /** The source address, when listed. */
  readonly ip?: string;
  /** The service blocked the request (`block_status` `blocked`); anything else was let through. */
  readonly blocked: boolean;
  /** The source's country (ISO code), proxy type and datacenter, when the service knew them. */
  readonly country?: string;
  readonly proxyType?: string;
  readonly datacenter?: string;
  /** The custom regex rules (their regex ids) that matched. */
  readonly regexIds: readonly number[];
}

/** What a hit records of its request, as a scope tests it (model/scope-match.ts): `tune` and `--impact` read it alike. */
export function recordedRequest(hit: Pick<Hit, 'domain' | 'path' | 'application'>): RecordedRequest {
  return { host: hit.domain, path: splitPath(hit.path), application: hit.application };
}

/** Seconds since the epoch, both ends included. */
export interface HitWindow {
  readonly from: number;
  readonly to: number;
}

/** How far back the service keeps hits (monthly indices, about six months): the default window. */
export const HIT_RETENTION_SECONDS = 183 * 86_400;

/**
 * Where offset paging of one filter stops (offset + limit), a common cap of
 * such listings: a filter that still fills its pages here is narrowed, or
 * refused, never read past the cap (a service or proxy that ignores `offset`
 * would otherwise be read forever).
 */
export const HIT_OFFSET_CAP = 10_000;

/** The attack types the service's client leaves out of a read by request (not attacks on the application). */
const NOT_ATTACKS = ['warn', 'infoleak'] as const;

/** The attack types the provider reads an attack's other hits with (data_source_hits.go `defaultAllowedAttackTypes`). */
export const RELATED_ATTACK_TYPES: readonly string[] = [
  'xss', 'sqli', 'rce', 'ptrav', 'crlf', 'redir', 'nosqli', 'ldapi', 'scanner', 'mass_assignment', 'ssrf', 'ssi',
  'mail_injection', 'ssti', 'xxe', 'invalid_xml',
];

export const HIT_ROUTE = 'POST /v1/objects/hit';

/** The filter keys the service's client adds to every read. */
export function standardHitFilter(window: HitWindow, options: { readonly experimental?: boolean } = {}): Record<string, unknown> {
  return {
    '!state': 'falsepositive',
    ...(options.experimental ? { experimental: true } : { '!experimental': true }),
    '!aasm_event': true,
    '!type': [...NOT_ATTACKS],
    time: [[window.from, window.to]],
  };
}

export interface HitRead {
  readonly window: HitWindow;
  /** Read the experimental hits (an `experimental_regex`'s dry run) instead of leaving them out. */
  readonly experimental?: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Every hit of `client` matching `filter` (the service's own filter keys) in
 * the window. Throws when the listing runs to the offset cap: the caller
 * narrows the filter (a shorter window) rather than reading a partial view.
 */
export async function readHits(api: ServiceApi, client: number, filter: Readonly<Record<string, unknown>>, read: HitRead): Promise<Hit[]> {
  return pageHits(api, client, { ...standardHitFilter(read.window, read), ...filter }, read);
}

/**
 * The other hits of attacks, by their `[index, id]` pairs, as the provider
 * reads them: the attack types of its allow-list (so no `!type`), the
 * service's own scanner left out.
 */
export async function readAttackHits(api: ServiceApi, client: number, attackIds: readonly (readonly [string | number, string | number])[], read: HitRead): Promise<Hit[]> {
  const { '!type': _byRequestOnly, ...standard } = standardHitFilter(read.window, read);
  return pageHits(api, client, { ...standard, attackid: attackIds, type: [...RELATED_ATTACK_TYPES], '!service_scanner': true }, read);
}

/** Every page of one filter, up to the offset cap. */
async function pageHits(api: ServiceApi, client: number, filter: Readonly<Record<string, unknown>>, read: HitRead): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (let offset = 0; ; offset += HIT_PAGE_LIMIT) {
    if (offset + HIT_PAGE_LIMIT > HIT_OFFSET_CAP) {
      throw new HitListingCapError(client, hits.length);
    }
    const page = await api.listHits(client, filter, offset, HIT_PAGE_LIMIT, read.signal ? { signal: read.signal } : {});
    hits.push(...page.map((record) => hitOf(record, client)));
    // Listed newest first; handed over oldest first, in the order the hits happened.
    if (page.length < HIT_PAGE_LIMIT) return hits.reverse();
  }
}

/** The hits of each request, one listing per request id, as the service's client reads them. */
export async function readRequestHits(api: ServiceApi, client: number, requestIds: readonly string[], read: HitRead): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (const requestId of new Set(requestIds)) hits.push(...await readHits(api, client, { request_id: requestId }, read));
  return hits;
}

/** A listing still full at the offset cap: what was read is not the whole answer. */
export class HitListingCapError extends ApiProtocolError {
  constructor(readonly client: number, readonly read: number) {
    super(`${HIT_ROUTE} of client ${client} was still full after ${read} hits, the most one filter can page through (${HIT_OFFSET_CAP}): narrow the time window`, { route: HIT_ROUTE });
  }
}

/** A hit as the listing gives it, checked for the fields every reader needs. */
export interface ListedHit {
  readonly id: readonly [string | number, string | number];
  readonly attackid: readonly [string | number, string | number];
  readonly type: string;
  readonly request_id: string;
  readonly point: readonly (string | number)[];
  readonly domain: string;
  readonly path: string;
  readonly time: number;
  readonly stamps?: readonly number[] | null;
  readonly poolid?: unknown;
  readonly value?: unknown;
  readonly ip?: unknown;
  readonly block_status?: unknown;
  readonly remote_country?: unknown;
  readonly proxy_type?: unknown;
  readonly datacenter?: unknown;
  readonly tor?: unknown;
  readonly regex?: unknown;
}

/** The record, if it carries what every reader needs; a protocol error naming the route otherwise. */
export function checkedHit(record: unknown): ListedHit {
  const r = (record ?? {}) as Record<string, unknown>;
  const ok = pair(r.id) && pair(r.attackid) && typeof r.type === 'string' && typeof r.request_id === 'string'
    && Array.isArray(r.point) && typeof r.domain === 'string' && typeof r.path === 'string' && typeof r.time === 'number'
    && (r.stamps === undefined || r.stamps === null || (Array.isArray(r.stamps) && r.stamps.every((s) => Number.isInteger(s))));
  if (!ok) throw new ApiProtocolError(`${HIT_ROUTE} listed a hit without its id, type, request, point, host, path or time`, { route: HIT_ROUTE, body: record });
  return r as unknown as ListedHit;
}

/** An `[index, id]` pair. */
function pair(value: unknown): value is [string, string] {
  return Array.isArray(value) && value.length === 2 && isKeyPart(value[0]) && isKeyPart(value[1]);
}

function isKeyPart(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number';
}

/** The application a hit names: 0 when it names none. */
export function hitApplication(hit: ListedHit): number {
  return typeof hit.poolid === 'number' ? hit.poolid : 0;
}

/** The regex rules (their ids) that matched a hit. */
export function hitRegexIds(hit: ListedHit): number[] {
  return Array.isArray(hit.regex) ? hit.regex.filter((id): id is number => Number.isInteger(id)) : [];
}

/** What the service knew of a hit's source: its country (upper-cased), proxy type (a Tor exit reads as `TOR`) and datacenter. */
export function hitSource(hit: ListedHit): { country?: string; proxyType?: string; datacenter?: string } {
  const country = hitCountry(hit);
  const proxyType = hitProxyType(hit);
  const datacenter = hitDatacenter(hit);
  return { ...(country ? { country } : {}), ...(proxyType ? { proxyType } : {}), ...(datacenter ? { datacenter } : {}) };
}

/** The source's country, upper-cased, when the service knew it. */
export function hitCountry(hit: ListedHit): string | undefined {
  return typeof hit.remote_country === 'string' && hit.remote_country !== '' ? hit.remote_country.toUpperCase() : undefined;
}

/** The source's proxy type, as the IP lists name it (a Tor exit reads as `TOR`), when the service knew it. */
export function hitProxyType(hit: ListedHit): string | undefined {
  return typeof hit.proxy_type === 'string' && hit.proxy_type !== '' ? hit.proxy_type.toUpperCase() : hit.tor === true ? 'TOR' : undefined;
}

/** The source's datacenter, lower-cased, when the service knew it. */
export function hitDatacenter(hit: ListedHit): string | undefined {
  return typeof hit.datacenter === 'string' && hit.datacenter !== '' ? hit.datacenter.toLowerCase() : undefined;
}

function hitOf(record: unknown, client: number): Hit {
  const r = checkedHit(record);
  return {
    id: [String(r.id[0]), String(r.id[1])],
    client,
    requestId: r.request_id,
    attackId: [String(r.attackid[0]), String(r.attackid[1])],
    type: r.type,
    stamps: r.stamps ?? [],
    point: r.point,
    application: hitApplication(r),
    domain: r.domain,
    path: r.path,
    time: r.time,
    ...(typeof r.value === 'string' ? { value: r.value } : {}),
    ...(typeof r.ip === 'string' ? { ip: r.ip } : {}),
    blocked: r.block_status === 'blocked',
    ...hitSource(r),
    regexIds: hitRegexIds(r),
  };
}
