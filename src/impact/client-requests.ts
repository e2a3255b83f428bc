/**
 * One client's recorded requests, as columns: a request is a number, its
 * position among the client's requests in the order its first hit came, and
 * what evaluation reads of it (time, verdict, place, source, hits) sits in
 * typed arrays at that position. The repeated parts are tables of their own
 * (a few thousand places and sources for 100k requests), and the groupings a
 * scope or an IP entry asks for are built once, as one array per grouping:
 * 100k requests hold a few megabytes and no object each.
 */
import { cidrBounds, parseCidr } from '../model/cidr.js';
import { splitPath } from '../model/request-path.js';
import type { Condition } from '../model/rule.js';
import type { RecordedRequest } from '../model/scope-match.js';
import { branch, group, members, push, type Grouping } from './tables.js';

/** A request: its position among its client's requests, in the order its first hit came. */
export type RequestRef = number;

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
 * Where a request went: its application, host and path, one for every request
 * of the same three. A scope selects a place or not, whatever its requests.
 */
export interface RequestPlace extends RecordedRequest {
  /** Its position in the client's table of places. */
  readonly index: number;
  /** The path as recorded (`/api/search`), for the top paths. */
  readonly rawPath: string;
  /** The application and the host as the slots key them (text, lower-cased). */
  readonly applicationKey: string;
  readonly hostKey: string;
}

/** What the service knew of a request's source: the first value its hits gave of each. */
export interface RequestSource {
  readonly index: number;
  readonly ip?: string | undefined;
  readonly country?: string | undefined;
  readonly proxyType?: string | undefined;
  readonly datacenter?: string | undefined;
}

export interface NumberedAddress {
  readonly ip: string;
  readonly family: 'ipv4' | 'ipv6';
  readonly value: bigint;
  /** Its key in an IP list's table (`addressKey`). */
  readonly key: string;
}

/** An address's key in an IP list's table (sources.ts): its family and number, so that every spelling of it is one key. */
export function addressKey(family: string, value: bigint): string {
  return `${family}:${value}`;
}

/** Every application and every host: the wildcard slots. */
const ANY = '*';
const NO_HITS: readonly EvidenceHit[] = Object.freeze([]);
const NO_REQUESTS: readonly RequestRef[] = Object.freeze([]);
const FIRST_CAPACITY = 1024;
const SOURCE_FIELDS = ['ip', 'country', 'proxyType', 'datacenter'] as const;
const SOURCE_KINDS: Readonly<Record<(typeof SOURCE_FIELDS)[number], string>> = { ip: 'ip', country: 'country', proxyType: 'proxy_type', datacenter: 'datacenter' };

interface Slot {
  readonly places: RequestPlace[];
  readonly byName: Map<string, RequestPlace[]>;
}

export class ClientRequests {
  private count = 0;
  private readonly ids: string[] = [];
  private times = new Float64Array(FIRST_CAPACITY);
  private blockedFlags = new Uint8Array(FIRST_CAPACITY);
  private placeOf = new Int32Array(FIRST_CAPACITY);
  private sourceOf = new Int32Array(FIRST_CAPACITY);
  private hitsOf = new Int32Array(FIRST_CAPACITY);
  private readonly placeList: RequestPlace[] = [];
  private readonly sourceList: RequestSource[] = [];
  /** Hit lists; a request of one hit shares its list with every other such request. */
  private readonly hitLists: (readonly EvidenceHit[])[] = [NO_HITS];

  /** While hits are added (`finish` lets them go): request ids, and the tables that share places, sources and one-hit lists. */
  private byId = new Map<string, RequestRef>();
  private places = new Map<number, Map<string, Map<string, RequestPlace>>>();
  private sources = new Map<string | undefined, Map<string | undefined, Map<string | undefined, Map<string | undefined, RequestSource>>>>();
  private singles = new Map<EvidenceHit, number>();

  /** Application → host → its places, and by the last segment of their path; the wider slots are built when a scope asks. */
  private readonly bySlot = new Map<string, Map<string, Slot>>();
  private readonly wide = new Map<string, Slot>();
  /** Built when first asked for, after the last hit. */
  private byPlace: Grouping | undefined;
  private bySource: Grouping | undefined;
  private sourcesByKey: Map<string, number[]> | undefined;
  private numbered: readonly NumberedAddress[] | undefined;
  private readonly numbers = new Map<string, NumberedAddress | undefined>();

  /** `share`: the index's table of repeated texts. */
  constructor(private readonly share: (text: string) => string = (text) => text) {}

  /** How many requests. */
  get size(): number {
    return this.count;
  }

  /** Every request's id, in the order its first hit came. */
  allIds(): readonly string[] {
    return this.ids;
  }

  id(request: RequestRef): string {
    return this.ids[request] as string;
  }

  /** Its latest hit's time. */
  time(request: RequestRef): number {
    return this.times[request] as number;
  }

  /** The service blocked it. */
  blocked(request: RequestRef): boolean {
    return this.blockedFlags[request] === 1;
  }

  place(request: RequestRef): RequestPlace {
    return this.placeList[this.placeOf[request] as number] as RequestPlace;
  }

  source(request: RequestRef): RequestSource {
    return this.sourceList[this.sourceOf[request] as number] as RequestSource;
  }

  hits(request: RequestRef): readonly EvidenceHit[] {
    return this.hitLists[this.hitsOf[request] as number] as readonly EvidenceHit[];
  }

  /** The request of this id; a new one, at its place, when this is its first hit. */
  request(id: string, application: number, host: string, path: string): RequestRef {
    const known = this.byId.get(id);
    if (known !== undefined) return known;
    const request = this.count++;
    if (request === this.times.length) this.grow();
    this.byId.set(id, request);
    this.ids.push(id);
    this.placeOf[request] = this.placeAt(application, host, path).index;
    this.sourceOf[request] = this.sourceOfValues(undefined, undefined, undefined, undefined).index;
    this.byPlace = this.bySource = this.sourcesByKey = this.numbered = undefined;
    return request;
  }

  /** What one more hit of the request says: its verdict, time and evidence. */
  record(request: RequestRef, blocked: boolean, time: number, evidence: EvidenceHit): void {
    if (blocked) this.blockedFlags[request] = 1;
    if (time > (this.times[request] as number)) this.times[request] = time;
    this.addHit(request, evidence);
  }

  /** What a hit says of the request's source: the first value the hits gave of each part stays. */
  describe(request: RequestRef, ip: string | undefined, country: string | undefined, proxyType: string | undefined, datacenter: string | undefined): void {
    const known = this.source(request);
    if ((known.ip !== undefined || ip === undefined) && (known.country !== undefined || country === undefined)
      && (known.proxyType !== undefined || proxyType === undefined) && (known.datacenter !== undefined || datacenter === undefined)) return;
    this.sourceOf[request] = this.sourceOfValues(known.ip ?? ip, known.country ?? country, known.proxyType ?? proxyType, known.datacenter ?? datacenter).index;
    this.bySource = this.sourcesByKey = this.numbered = undefined;
  }

  /** Lets go of what only adding needed (the ids' map, the sharing tables). */
  finish(): void {
    this.byId = new Map();
    this.places = new Map();
    this.sources = new Map();
    this.singles = new Map();
  }

  /** The places a scope can select: narrowed by its application and host where it names them exactly. */
  candidates(conditions: readonly Condition[]): readonly RequestPlace[] {
    const instance = conditions.find((c) => c.point[0] === 'instance' && c.type === 'equal')?.value ?? undefined;
    const host = conditions.find((c) => c.point[0] === 'header' && (c.type === 'equal' || c.type === 'iequal'))?.value?.toLowerCase();
    const name = conditions.find((c) => c.point[0] === 'action_name' && c.type === 'equal')?.value;
    if (instance === undefined && host === undefined) return this.placeList;
    const slot = instance !== undefined && host !== undefined ? this.bySlot.get(instance)?.get(host) : this.wideSlot(instance, host);
    if (!slot) return [];
    return host != null && name != null ? slot.byName.get(name) ?? [] : slot.places;
  }

  /** The requests at a place, ascending. */
  at(place: RequestPlace): Int32Array {
    this.byPlace ??= group(this.placeOf, this.count, this.placeList.length);
    return members(this.byPlace, place.index);
  }

  /** The requests from one source: `ip:<address>`, `country:<code>`, `proxy_type:<type>`, `datacenter:<name>`. */
  fromSource(key: string): readonly RequestRef[] {
    const sources = this.sourceKeys().get(key);
    if (!sources) return NO_REQUESTS;
    this.bySource ??= group(this.sourceOf, this.count, this.sourceList.length);
    const grouping = this.bySource;
    return sources.length === 1 ? [...members(grouping, sources[0] as number)] : sources.flatMap((source) => [...members(grouping, source)]);
  }

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
    this.numbered ??= [...this.sourceKeys().keys()].flatMap((key) => {
      const address = key.startsWith('ip:') ? this.numberOf(key.slice(3)) : undefined;
      return address ? [address] : [];
    });
    return this.numbered;
  }

  /** `ip:<address>`, `country:<code>`, ... → the sources that name it, of the requests' sources. */
  private sourceKeys(): Map<string, number[]> {
    if (this.sourcesByKey) return this.sourcesByKey;
    const used = new Uint8Array(this.sourceList.length);
    for (let request = 0; request < this.count; request++) used[this.sourceOf[request] as number] = 1;
    const keys = new Map<string, number[]>();
    for (const source of this.sourceList) {
      if (used[source.index] !== 1) continue;
      for (const field of SOURCE_FIELDS) {
        const value = source[field];
        if (value !== undefined) push(keys, `${SOURCE_KINDS[field]}:${value}`, source.index);
      }
    }
    return this.sourcesByKey = keys;
  }

  private placeAt(application: number, domain: string, path: string): RequestPlace {
    const byPath = branch(branch(this.places, application), domain);
    let place = byPath.get(path);
    if (!place) {
      const host = this.share(domain);
      const rawPath = this.share(path);
      place = { index: this.placeList.length, application, host, path: splitPath(rawPath), rawPath, applicationKey: String(application), hostKey: this.share(host.toLowerCase()) };
      this.placeList.push(place);
      byPath.set(path, place);
      this.file(place);
    }
    return place;
  }

  /** A new place, under its own application and host, and by the last segment of its path (a URL's page). */
  private file(place: RequestPlace): void {
    const slot = branch(this.bySlot, place.applicationKey).get(place.hostKey) ?? newSlot();
    branch(this.bySlot, place.applicationKey).set(place.hostKey, slot);
    slot.places.push(place);
    if (place.path) push(slot.byName, place.path.name, place);
    if (this.wide.size > 0) this.wide.clear();
  }

  /** Every host of an application, or every application of a host: built once, in the order the places came. */
  private wideSlot(instance: string | undefined, host: string | undefined): Slot | undefined {
    const key = `${instance ?? ANY}\0${host ?? ANY}`;
    if (!this.wide.has(key)) {
      const slot = newSlot();
      for (const place of this.placeList) {
        if ((instance !== undefined && place.applicationKey !== instance) || (host !== undefined && place.hostKey !== host)) continue;
        slot.places.push(place);
        if (place.path) push(slot.byName, place.path.name, place);
      }
      this.wide.set(key, slot);
    }
    return this.wide.get(key);
  }

  private sourceOfValues(ip: string | undefined, country: string | undefined, proxyType: string | undefined, datacenter: string | undefined): RequestSource {
    const byDatacenter = branch(branch(branch(this.sources, ip), country), proxyType);
    let source = byDatacenter.get(datacenter);
    if (!source) {
      source = { index: this.sourceList.length, ip, country, proxyType, datacenter };
      this.sourceList.push(source);
      byDatacenter.set(datacenter, source);
    }
    return source;
  }

  /** A request's first hit takes the shared list of that one hit; a later one makes the request a list of its own. */
  private addHit(request: RequestRef, evidence: EvidenceHit): void {
    const current = this.hitsOf[request] as number;
    if (current === 0) {
      // A payload makes each hit its own: its list is its own too, and need not be remembered.
      let shared = evidence.value === undefined ? this.singles.get(evidence) : undefined;
      if (shared === undefined) {
        shared = this.hitLists.push(Object.freeze([evidence])) - 1;
        if (evidence.value === undefined) this.singles.set(evidence, shared);
      }
      this.hitsOf[request] = shared;
      return;
    }
    const list = this.hitLists[current] as readonly EvidenceHit[];
    const own = list.length > 1 || list[0]?.value !== undefined;
    if (own) this.hitLists[current] = [...list, evidence];
    else this.hitsOf[request] = this.hitLists.push([...list, evidence]) - 1;
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    this.times = grown(this.times, new Float64Array(capacity));
    this.blockedFlags = grown(this.blockedFlags, new Uint8Array(capacity));
    this.placeOf = grown(this.placeOf, new Int32Array(capacity));
    this.sourceOf = grown(this.sourceOf, new Int32Array(capacity));
    this.hitsOf = grown(this.hitsOf, new Int32Array(capacity));
  }
}

function grown<T extends Float64Array | Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

function newSlot(): Slot {
  return { places: [], byName: new Map() };
}
