/**
 * The requests the service recorded, built from their hits (one hit per point
 * and attack of a request) as the listing hands them over, and indexed by
 * client, application and host so that evaluating a plan costs about one pass
 * over the hits, not hits × changes.
 *
 * Hits are many (the bench reads 100k): a request keeps only what evaluation
 * reads, its repeated texts (hosts, paths, addresses, points) are shared, and
 * a hit's payload is kept only when a regex change will test it.
 */
import { InternalError } from '../errors.js';
import { hitApplication, hitRegexIds, hitSource, type ListedHit } from '../hits/read.js';
import { cidrBounds, parseCidr } from '../model/cidr.js';
import { splitPath, type RequestPath } from '../model/request-path.js';
import type { Condition } from '../model/rule.js';
import type { RecordedRequest } from '../model/scope-match.js';
import { pointKeyOf } from './point.js';

/** What evaluation reads of one hit. */
export interface EvidenceHit {
  /** The attack type. */
  readonly type: string;
  readonly stamps: readonly number[];
  /** Its point (point.ts). */
  readonly pointKey: string;
  readonly regexIds: readonly number[];
  /** The payload, when a regex change of the plan will test it. */
  readonly value?: string;
}

/** A request as its hits recorded it. */
export class SeenRequest implements RecordedRequest {
  ip: string | undefined;
  country: string | undefined;
  proxyType: string | undefined;
  datacenter: string | undefined;
  /** The service blocked it. */
  blocked = false;
  /** Its latest hit's time. */
  time = 0;
  /** Its hits; a request of one hit shares its list with every other such request (the index's `add`). */
  hits: readonly EvidenceHit[] = NO_HITS;

  constructor(
    readonly id: string,
    readonly application: number,
    /** The `Host` header (the hit's `domain`). */
    readonly host: string,
    readonly path: RequestPath | undefined,
    /** The path as recorded (`/api/search`), for the top paths. */
    readonly rawPath: string,
  ) {}
}

const NO_HITS: readonly EvidenceHit[] = Object.freeze([]);

/** Every application and every host: the wildcard slots of the index. */
const ANY = '*';
const NO_NUMBERS: readonly number[] = Object.freeze([]);

/** One client's requests, by application and host, and by source. */
export class ClientRequests {
  /** By request id, while hits are added (`RequestIndex.finish` lets it go). */
  byId = new Map<string, SeenRequest>();
  /** Application (or ANY) → host (or ANY) → the requests, and by the last segment of their path. */
  private readonly bySlot = new Map<string, Map<string, Slot>>();
  private readonly bySource = new Map<string, SeenRequest[]>();
  private numbered: readonly NumberedAddress[] | undefined;

  /** A new request, under its application and host as the index keys them (text, lower-cased). */
  add(request: SeenRequest, application: string, host: string): void {
    this.byId.set(request.id, request);
    for (const app of [application, ANY]) {
      let hosts = this.bySlot.get(app);
      if (!hosts) this.bySlot.set(app, hosts = new Map());
      for (const key of [host, ANY]) {
        let slot = hosts.get(key);
        if (!slot) hosts.set(key, slot = { all: [], byName: new Map() });
        slot.all.push(request);
        // The last segment too, where a scope names it with its host (a URL's page): most scopes do, and it narrows to a few requests.
        if (key !== ANY && request.path) push(slot.byName, request.path.name, request);
      }
    }
  }

  /** Index a request by its source once its first hit named it. */
  addSource(key: string, request: SeenRequest): void {
    push(this.bySource, key, request);
    this.numbered = undefined;
  }

  /** Every request of the client: the slot of every application and every host. */
  get all(): readonly SeenRequest[] {
    return this.bySlot.get(ANY)?.get(ANY)?.all ?? [];
  }

  /** The requests a scope can select: narrowed by its application and host where it names them exactly. */
  candidates(conditions: readonly Condition[]): readonly SeenRequest[] {
    const instance = conditions.find((c) => c.point[0] === 'instance' && c.type === 'equal')?.value;
    const host = conditions.find((c) => c.point[0] === 'header' && (c.type === 'equal' || c.type === 'iequal'))?.value;
    const name = conditions.find((c) => c.point[0] === 'action_name' && c.type === 'equal')?.value;
    const slot = this.bySlot.get(instance ?? ANY)?.get(host?.toLowerCase() ?? ANY);
    if (!slot) return [];
    return host != null && name != null ? slot.byName.get(name) ?? [] : slot.all;
  }

  /** The requests from one source: `ip:<address>`, `country:<code>`, `proxy_type:<type>`, `datacenter:<name>`. */
  fromSource(key: string): readonly SeenRequest[] {
    return this.bySource.get(key) ?? [];
  }

  private readonly numbers = new Map<string, NumberedAddress | undefined>();

  /** A source address as a number of its family, computed once per address. */
  numberOf(ip: string): NumberedAddress | undefined {
    if (!this.numbers.has(ip)) {
      const parsed = parseCidr(ip);
      this.numbers.set(ip, parsed ? { ip, ...pick(cidrBounds(parsed.cidr)) } : undefined);
    }
    return this.numbers.get(ip);
  }

  /** Every distinct source address as a number of its family, for subnets (far fewer than requests); computed once. */
  addresses(): readonly NumberedAddress[] {
    this.numbered ??= [...this.bySource.keys()].flatMap((key) => {
      const address = key.startsWith('ip:') ? this.numberOf(key.slice(3)) : undefined;
      return address ? [address] : [];
    });
    return this.numbered;
  }
}

interface Slot {
  readonly all: SeenRequest[];
  readonly byName: Map<string, SeenRequest[]>;
}

export interface NumberedAddress {
  readonly ip: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly value: bigint;
}

function pick(bounds: ReturnType<typeof cidrBounds>): { family: 'ipv4' | 'ipv6'; value: bigint } {
  return { family: bounds.family, value: bounds.first };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface IndexOptions {
  /** Keep each hit's payload (a regex change will test it). */
  readonly values?: boolean;
}

/** Hits grouped into their requests, per client. */
export class RequestIndex {
  private readonly clients = new Map<number, ClientRequests>();
  private readonly texts = new Map<string, string>();
  private readonly paths = new Map<string, RequestPath | undefined>();
  private readonly numberLists = new Map<string, readonly number[]>();
  /** Hits added. */
  size = 0;

  constructor(private readonly options: IndexOptions = {}) {}

  static of(client: number, hits: Iterable<ListedHit>, options: IndexOptions = {}): RequestIndex {
    const index = new RequestIndex(options);
    for (const hit of hits) index.add(client, hit);
    return index;
  }

  /** The clients whose hits the index holds. */
  clientIds(): number[] {
    return [...this.clients.keys()].sort((a, b) => a - b);
  }

  client(client: number): ClientRequests {
    return this.clients.get(client) ?? EMPTY;
  }

  /**
   * Lets go of what only adding needed (the request ids' map, the shared
   * texts' tables): about a tenth of the index at 100k requests.
   */
  finish(): void {
    for (const requests of this.clients.values()) requests.byId = new Map();
    for (const table of [this.texts, this.paths, this.pointKeys, this.numberLists, this.evidences, this.singles]) table.clear();
  }

  /** Takes over another index's clients, each read whole (a client is read once per index). */
  absorb(other: RequestIndex): void {
    for (const [client, requests] of other.clients) {
      if (this.clients.has(client)) throw new InternalError(`client ${client}'s hits were read twice into one index`);
      this.clients.set(client, requests);
    }
    this.size += other.size;
  }

  add(client: number, hit: ListedHit): void {
    this.size += 1;
    let requests = this.clients.get(client);
    if (!requests) this.clients.set(client, requests = new ClientRequests());
    let request = requests.byId.get(hit.request_id);
    if (!request) {
      const rawPath = this.text(hit.path);
      if (!this.paths.has(rawPath)) this.paths.set(rawPath, splitPath(rawPath));
      const application = hitApplication(hit);
      const host = this.text(hit.domain);
      request = new SeenRequest(hit.request_id, application, host, this.paths.get(rawPath), rawPath);
      requests.add(request, String(application), host.toLowerCase());
    }
    this.describeSource(request, hit, requests);
    if (hit.block_status === 'blocked') request.blocked = true;
    if (hit.time > request.time) request.time = hit.time;
    const evidence = this.evidence(hit);
    request.hits = request.hits.length === 0 ? this.alone(evidence) : [...request.hits, evidence];
  }

  private readonly evidences = new Map<string, EvidenceHit>();
  private readonly singles = new Map<EvidenceHit, readonly EvidenceHit[]>();

  /**
   * What evaluation reads of a hit. Without its payload, hits of one type,
   * stamps, point and regexes are alike (a few hundred kinds for 100k hits):
   * one object stands for them all.
   */
  private evidence(hit: ListedHit): EvidenceHit {
    const type = this.text(hit.type);
    const stamps = this.numbers(hit.stamps ?? NO_NUMBERS);
    const pointKey = this.pointKey(hit.point);
    const regexIds = this.numbers(hitRegexIds(hit));
    if (this.options.values && typeof hit.value === 'string') return { type, stamps, pointKey, regexIds, value: hit.value };
    const key = `${type}\0${stamps.join(',')}\0${pointKey}\0${regexIds.join(',')}`;
    let evidence = this.evidences.get(key);
    if (!evidence) this.evidences.set(key, evidence = Object.freeze({ type, stamps, pointKey, regexIds }));
    return evidence;
  }

  /** The one list of a request of a single hit: shared. */
  private alone(evidence: EvidenceHit): readonly EvidenceHit[] {
    let list = this.singles.get(evidence);
    if (!list) {
      list = Object.freeze([evidence]);
      // A payload makes each hit its own: its list is its own too, and need not be remembered.
      if (evidence.value === undefined) this.singles.set(evidence, list);
    }
    return list;
  }

  /** The source the request's first hits name (one request has one source). */
  private describeSource(request: SeenRequest, hit: ListedHit, requests: ClientRequests): void {
    const source = hitSource(hit);
    if (request.ip === undefined && typeof hit.ip === 'string') {
      request.ip = this.text(hit.ip);
      requests.addSource(`ip:${request.ip}`, request);
    }
    if (request.country === undefined && source.country) requests.addSource(`country:${request.country = this.text(source.country)}`, request);
    if (request.proxyType === undefined && source.proxyType) requests.addSource(`proxy_type:${request.proxyType = this.text(source.proxyType)}`, request);
    if (request.datacenter === undefined && source.datacenter) requests.addSource(`datacenter:${request.datacenter = this.text(source.datacenter)}`, request);
  }

  private readonly pointKeys = new Map<string, string>();

  private pointKey(point: readonly (string | number)[]): string {
    const raw = point.join('\0');
    let key = this.pointKeys.get(raw);
    if (key === undefined) this.pointKeys.set(raw, key = pointKeyOf(point));
    return key;
  }

  private text(value: string): string {
    const known = this.texts.get(value);
    if (known !== undefined) return known;
    this.texts.set(value, value);
    return value;
  }

  private numbers(list: readonly number[]): readonly number[] {
    if (list.length === 0) return NO_NUMBERS;
    const key = list.join(',');
    const known = this.numberLists.get(key);
    if (known) return known;
    const kept = Object.freeze([...list]);
    this.numberLists.set(key, kept);
    return kept;
  }
}

const EMPTY = new ClientRequests();
