/**
 * Reading what the service saw: its hits (`POST /v1/objects/hit`), every page
 * through the client's retries and errors, filtered as the service's own
 * client filters them. The one module that knows where hits come from, so a
 * second source (the service's newer attack-vector listing) can sit beside it.
 *
 * The filter, as the service's Go client and Terraform provider send it
 * (`wallarm-go` get_hits.go `HitFilter`; the provider's data_source_hits.go
 * `fetchDirectHits`): `request_id` a string, one request per listing;
 * `attackid` a list of `[index, id]` pairs; and on every read the hits marked
 * false positive, experimental (unless asked for) and API-abuse events left
 * out, `warn` and `infoleak` left out, within a time window.
 */
import { HIT_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { ApiProtocolError } from '../errors.js';

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

/** The attack types the service's client leaves out of every read (not attacks on the application). */
const NOT_ATTACKS = ['warn', 'infoleak'] as const;

const ROUTE = 'POST /v1/objects/hit';

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
  const hits: Hit[] = [];
  const full = { ...standardHitFilter(read.window, read), ...filter };
  for (let offset = 0; ; offset += HIT_PAGE_LIMIT) {
    if (offset + HIT_PAGE_LIMIT > HIT_OFFSET_CAP) {
      throw new HitListingCapError(client, hits.length);
    }
    const page = await api.listHits(client, full, offset, HIT_PAGE_LIMIT, read.signal ? { signal: read.signal } : {});
    hits.push(...page.map((record) => hitOf(record, client)));
    if (page.length < HIT_PAGE_LIMIT) return hits;
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
    super(`${ROUTE} of client ${client} was still full after ${read} hits, the most one filter can page through (${HIT_OFFSET_CAP}): narrow the time window`, { route: ROUTE });
  }
}

function hitOf(record: unknown, client: number): Hit {
  const r = (record ?? {}) as Record<string, unknown>;
  const pair = (value: unknown): value is [string, string] => Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' || typeof v === 'number');
  const ok = pair(r.id) && pair(r.attackid) && typeof r.type === 'string' && typeof r.request_id === 'string'
    && Array.isArray(r.point) && typeof r.domain === 'string' && typeof r.path === 'string' && typeof r.time === 'number'
    && (r.stamps === undefined || r.stamps === null || (Array.isArray(r.stamps) && r.stamps.every((s) => Number.isInteger(s))));
  if (!ok) throw new ApiProtocolError(`${ROUTE} listed a hit without its id, type, request, point, host, path or time`, { route: ROUTE, body: record });
  return {
    id: [String((r.id as unknown[])[0]), String((r.id as unknown[])[1])],
    client,
    requestId: r.request_id as string,
    attackId: [String((r.attackid as unknown[])[0]), String((r.attackid as unknown[])[1])],
    type: r.type as string,
    stamps: (r.stamps as number[] | null | undefined) ?? [],
    point: r.point as (string | number)[],
    application: typeof r.poolid === 'number' ? r.poolid : 0,
    domain: r.domain as string,
    path: r.path as string,
    time: r.time as number,
    ...(typeof r.value === 'string' ? { value: r.value } : {}),
  };
}
