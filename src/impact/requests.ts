/**
 * The requests the service recorded, from their hits (one hit per point and
 * attack of a request), indexed once by client, application and host so that
 * evaluating a plan costs about one pass over the hits, not hits × changes.
 */
import { recordedRequest, type Hit } from '../hits/read.js';
import { cidrBounds, parseCidr } from '../model/cidr.js';
import type { Condition } from '../model/rule.js';
import type { RecordedRequest } from '../model/scope-match.js';

export interface SeenRequest extends RecordedRequest {
  readonly id: string;
  readonly client: number;
  /** The path as recorded (`/api/search`), for the top paths. */
  readonly rawPath: string;
  readonly ip?: string;
  readonly country?: string;
  readonly proxyType?: string;
  readonly datacenter?: string;
  /** The service blocked it. */
  readonly blocked: boolean;
  /** Its latest hit's time. */
  readonly time: number;
  readonly hits: readonly Hit[];
}

/** Every application and every host: the wildcard slots of the index. */
const ANY = '*';

/** One client's requests, by application and host. */
export class ClientRequests {
  readonly all: SeenRequest[] = [];
  private readonly bySlot = new Map<string, SeenRequest[]>();
  private readonly bySource = new Map<string, SeenRequest[]>();

  add(request: SeenRequest): void {
    this.all.push(request);
    for (const app of [String(request.application), ANY]) {
      for (const host of [request.host.toLowerCase(), ANY]) push(this.bySlot, `${app}\0${host}`, request);
    }
    for (const key of sourceKeys(request)) push(this.bySource, key, request);
  }

  /** The requests a scope can select: narrowed by its application and host where it names them exactly. */
  candidates(conditions: readonly Condition[]): readonly SeenRequest[] {
    const instance = conditions.find((c) => c.point[0] === 'instance' && c.type === 'equal')?.value;
    const host = conditions.find((c) => c.point[0] === 'header' && (c.type === 'equal' || c.type === 'iequal'))?.value;
    return this.bySlot.get(`${instance ?? ANY}\0${host?.toLowerCase() ?? ANY}`) ?? [];
  }

  /** The requests from one source: `ip:<address>`, `country:<code>`, `proxy_type:<type>`, `datacenter:<name>`. */
  fromSource(key: string): readonly SeenRequest[] {
    return this.bySource.get(key) ?? [];
  }

  private numbered: readonly NumberedAddress[] | undefined;

  /** Every distinct source address as a number of its family, for subnets (far fewer than requests); computed once. */
  addresses(): readonly NumberedAddress[] {
    this.numbered ??= [...this.bySource.keys()].flatMap((key) => {
      if (!key.startsWith('ip:')) return [];
      const ip = key.slice(3);
      const parsed = parseCidr(ip);
      if (!parsed) return [];
      const { family, first } = cidrBounds(parsed.cidr);
      return [{ ip, family, value: first }];
    });
    return this.numbered;
  }
}

export interface NumberedAddress {
  readonly ip: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly value: bigint;
}

function sourceKeys(request: SeenRequest): string[] {
  return [
    ...(request.ip ? [`ip:${request.ip}`] : []),
    ...(request.country ? [`country:${request.country}`] : []),
    ...(request.proxyType ? [`proxy_type:${request.proxyType}`] : []),
    ...(request.datacenter ? [`datacenter:${request.datacenter}`] : []),
  ];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Hits grouped into their requests, per client. */
export class RequestIndex {
  private readonly clients = new Map<number, ClientRequests>();

  constructor(hits: Iterable<Hit>) {
    const grouped = new Map<string, Hit[]>();
    for (const hit of hits) push(grouped, `${hit.client}\0${hit.requestId}`, hit);
    for (const group of grouped.values()) {
      const request = requestOf(group);
      let client = this.clients.get(request.client);
      if (!client) this.clients.set(request.client, client = new ClientRequests());
      client.add(request);
    }
  }

  client(client: number): ClientRequests {
    return this.clients.get(client) ?? EMPTY;
  }
}

const EMPTY = new ClientRequests();

function requestOf(hits: readonly Hit[]): SeenRequest {
  const first = hits[0] as Hit;
  const found = <T>(pick: (hit: Hit) => T | undefined): T | undefined => {
    for (const hit of hits) {
      const value = pick(hit);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const ip = found((h) => h.ip);
  const country = found((h) => h.country);
  const proxyType = found((h) => h.proxyType);
  const datacenter = found((h) => h.datacenter);
  return {
    id: first.requestId, client: first.client, ...recordedRequest(first), rawPath: first.path,
    ...(ip !== undefined ? { ip } : {}),
    ...(country !== undefined ? { country } : {}),
    ...(proxyType !== undefined ? { proxyType } : {}),
    ...(datacenter !== undefined ? { datacenter } : {}),
    blocked: hits.some((h) => h.blocked),
    time: Math.max(...hits.map((h) => h.time)),
    hits,
  };
}
