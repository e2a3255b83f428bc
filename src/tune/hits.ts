/**
 * Reading what the service saw: its hits (`POST /v1/objects/hit`), every page
 * through the client's retries and errors. The one module that knows where
 * hits come from, so a second source (the service's newer attack-vector
 * listing, once it carries stamps and the application) can sit beside it.
 */
import { HIT_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { ApiProtocolError } from '../errors.js';

/** A hit as tuning reads it: the fields the scoping and the grouping need. */
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
  /** The application; 0 or less when the hit names none (-1 is the default application). */
  readonly application: number;
  readonly domain: string;
  readonly path: string;
  /** Seconds since the epoch. */
  readonly time: number;
}

const ROUTE = 'POST /v1/objects/hit';

/** Every hit of `client` matching `filter` (the service's filter keys). */
export async function readHits(api: ServiceApi, client: number, filter: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (let offset = 0; ; offset += HIT_PAGE_LIMIT) {
    const page = await api.listHits(client, filter, offset, HIT_PAGE_LIMIT, signal ? { signal } : {});
    hits.push(...page.map((record) => hitOf(record, client)));
    if (page.length < HIT_PAGE_LIMIT) return hits;
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
    application: typeof r.poolid === 'number' ? r.poolid : -1,
    domain: r.domain as string,
    path: r.path as string,
    time: r.time as number,
  };
}
