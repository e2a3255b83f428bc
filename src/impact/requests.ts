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
import { hitApplication, hitCountry, hitDatacenter, hitProxyType, hitRegexIds, type ListedHit } from '../hits/read.js';
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

/**
 * Where a request went: its application, host and path, one object for every
 * request of the same three (a few thousand for 100k requests), with the keys
 * the index files it under.
 */
export interface RequestPlace {
  readonly application: number;
  /** The `Host` header (the hit's `domain`). */
  readonly host: string;
  readonly path: RequestPath | undefined;
  /** The path as recorded (`/api/search`), for the top paths. */
  readonly rawPath: string;
  /** The application and the host as the index keys them (text, lower-cased). */
  readonly applicationKey: string;
  readonly hostKey: string;
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

  constructor(readonly id: string, readonly place: RequestPlace) {}

  get application(): number {
    return this.place.application;
  }

  /** The `Host` header (the hit's `domain`). */
  get host(): string {
    return this.place.host;
  }

  get path(): RequestPath | undefined {
    return this.place.path;
  }

  /** The path as recorded (`/api/search`), for the top paths. */
  get rawPath(): string {
    return this.place.rawPath;
  }
}

const NO_HITS: readonly EvidenceHit[] = Object.freeze([]);

/** Every application and every host: the wildcard slots of the index. */
const ANY = '*';
const NO_NUMBERS: readonly number[] = Object.freeze([]);

/** One client's requests, by application and host, and by source. */
export class ClientRequests {
  /** By request id, while hits are added (`RequestIndex.finish` lets it go). */
  byId = new Map<string, SeenRequest>();
  /** Every request, in the order its first hit came. */
  private readonly every: SeenRequest[] = [];
  /**
   * Application → host → its requests, and by the last segment of their
   * path: each request is filed once, under its own application and host.
   * The wider slots (every application of a host, every host of an
   * application) are built from `every` when a scope first asks for one.
   */
  private readonly bySlot = new Map<string, Map<string, Slot>>();
  private readonly wide = new Map<string, Slot>();
  private readonly bySource = new Map<string, SeenRequest[]>();
  private numbered: readonly NumberedAddress[] | undefined;

  /** A new request, under its application and host as the index keys them. */
  add(request: SeenRequest): void {
    const { applicationKey, hostKey } = request.place;
    this.byId.set(request.id, request);
    this.every.push(request);
    let hosts = this.bySlot.get(applicationKey);
    if (!hosts) this.bySlot.set(applicationKey, hosts = new Map());
    let slot = hosts.get(hostKey);
    if (!slot) hosts.set(hostKey, slot = { all: [], byName: new Map() });
    slot.all.push(request);
    // The last segment too, where a scope names it with its host (a URL's page): most scopes do, and it narrows to a few requests.
    if (request.path) push(slot.byName, request.path.name, request);
    if (this.wide.size > 0) this.wide.clear();
  }
  /** Index a request by its source once its first hit named it. */
  addSource(key: string, request: SeenRequest): void {
    push(this.bySource, key, request);
    this.numbered = undefined;
  }

  /** Every request of the client. */
  get all(): readonly SeenRequest[] {
    return this.every;
  }

  /** The requests a scope can select: narrowed by its application and host where it names them exactly. */
  candidates(conditions: readonly Condition[]): readonly SeenRequest[] {
    const instance = conditions.find((c) => c.point[0] === 'instance' && c.type === 'equal')?.value ?? undefined;
    const host = conditions.find((c) => c.point[0] === 'header' && (c.type === 'equal' || c.type === 'iequal'))?.value?.toLowerCase();
    const name = conditions.find((c) => c.point[0] === 'action_name' && c.type === 'equal')?.value;
    if (instance === undefined && host === undefined) return this.every;
    const slot = instance !== undefined && host !== undefined ? this.bySlot.get(instance)?.get(host) : this.wideSlot(instance, host);
    if (!slot) return [];
    return host != null && name != null ? slot.byName.get(name) ?? [] : slot.all;
  }

  /** Every host of an application, or every application of a host: built once, in the order the requests came. */
  private wideSlot(instance: string | undefined, host: string | undefined): Slot | undefined {
    const key = `${instance ?? ANY}\0${host ?? ANY}`;
    if (!this.wide.has(key)) {
      const slot: Slot = { all: [], byName: new Map() };
      for (const request of this.every) {
        if ((instance !== undefined && request.place.applicationKey !== instance) || (host !== undefined && request.place.hostKey !== host)) continue;
        slot.all.push(request);
        if (request.path) push(slot.byName, request.path.name, request);
      }
      this.wide.set(key, slot);
    }
    return this.wide.get(key);
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
      const bounds = parsed ? cidrBounds(parsed.cidr) : undefined;
      this.numbers.set(ip, bounds ? { ip, family: bounds.family, value: bounds.first, key: addressKey(bounds.family, bounds.first) } : undefined);
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
  /** Its key in an IP list's table (sources.ts `addressKey`). */
  readonly key: string;
}

/** An address's key in an IP list's table (sources.ts): its family and number, so that every spelling of it is one key. */
export function addressKey(family: string, value: bigint): string {
  return `${family}:${value}`;
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
  /** The tables below share what many hits repeat; each is looked up without building a key per hit. */
  private readonly texts = new Map<string, string>();
  private readonly places = new Map<number, Map<string, Map<string, RequestPlace>>>();
  private readonly sourceKeys = new Map<string, string>();
  private readonly numberLists = new Map<string, readonly number[]>();
  private readonly oneNumber = new Map<number, readonly number[]>();
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
    for (const table of [this.texts, this.places, this.sourceKeys, this.pointKeys, this.numberLists, this.oneNumber, this.evidences, this.singles]) table.clear();
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
      request = new SeenRequest(hit.request_id, this.place(hitApplication(hit), hit.domain, hit.path));
      requests.add(request);
    }
    this.describeSource(request, hit, requests);
    if (hit.block_status === 'blocked') request.blocked = true;
    if (hit.time > request.time) request.time = hit.time;
    const evidence = this.evidence(hit);
    request.hits = request.hits.length === 0 ? this.alone(evidence) : [...request.hits, evidence];
  }

  /** The one place of an application, host and path. */
  private place(application: number, domain: string, path: string): RequestPlace {
    const byPath = branch(branch(this.places, application), domain);
    let place = byPath.get(path);
    if (!place) {
      const host = this.text(domain);
      const rawPath = this.text(path);
      place = { application, host, path: splitPath(rawPath), rawPath, applicationKey: String(application), hostKey: this.text(host.toLowerCase()) };
      byPath.set(path, place);
    }
    return place;
  }

  private readonly evidences: Map<string, Map<readonly number[], Map<string, Map<readonly number[], EvidenceHit>>>> = new Map();
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
    const regexIds = Array.isArray(hit.regex) && hit.regex.length > 0 ? this.numbers(hitRegexIds(hit)) : NO_NUMBERS;
    if (this.options.values && typeof hit.value === 'string') return { type, stamps, pointKey, regexIds, value: hit.value };
    // The parts are shared already: the same parts are the same objects.
    const byRegexes = branch(branch(branch(this.evidences, type), stamps), pointKey);
    let evidence = byRegexes.get(regexIds);
    if (!evidence) byRegexes.set(regexIds, evidence = Object.freeze({ type, stamps, pointKey, regexIds }));
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
    if (request.ip === undefined && typeof hit.ip === 'string') requests.addSource(this.sourceKey('ip', request.ip = this.text(hit.ip)), request);
    if (request.country === undefined) {
      const country = hitCountry(hit);
      if (country) requests.addSource(this.sourceKey('country', request.country = this.text(country)), request);
    }
    if (request.proxyType === undefined) {
      const proxyType = hitProxyType(hit);
      if (proxyType) requests.addSource(this.sourceKey('proxy_type', request.proxyType = this.text(proxyType)), request);
    }
    if (request.datacenter === undefined) {
      const datacenter = hitDatacenter(hit);
      if (datacenter) requests.addSource(this.sourceKey('datacenter', request.datacenter = this.text(datacenter)), request);
    }
  }

  /** `ip:<address>`, `country:<code>`, ...: one string per source, not per request. */
  private sourceKey(kind: string, value: string): string {
    const byValue = branch(this.sourceKeyTables, kind);
    let key = byValue.get(value);
    if (key === undefined) byValue.set(value, key = `${kind}:${value}`);
    return key;
  }

  private readonly sourceKeyTables = new Map<string, Map<string, string>>();
  private readonly pointKeys = new Map<string | number, Map<string | number | undefined, string>>();

  /** A point's key; the points of hits have one or two parts, looked up part by part. */
  private pointKey(point: readonly (string | number)[]): string {
    if (point.length > 2) return pointKeyOf(point);
    const [first = '', second] = point;
    const bySecond = branch(this.pointKeys, first);
    let key = bySecond.get(second);
    if (key === undefined) bySecond.set(second, key = pointKeyOf(point));
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
    if (list.length === 1) {
      const [only] = list as [number];
      let kept = this.oneNumber.get(only);
      if (!kept) this.oneNumber.set(only, kept = Object.freeze([only]));
      return kept;
    }
    const key = list.join(',');
    let kept = this.numberLists.get(key);
    if (!kept) this.numberLists.set(key, kept = Object.freeze([...list]));
    return kept;
  }
}

/** The inner table of `key`, made when first asked for. */
function branch<K, K2, V>(map: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = map.get(key);
  if (!inner) map.set(key, inner = new Map());
  return inner;
}

const EMPTY = new ClientRequests();
