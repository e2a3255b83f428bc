/**
 * The requests the service recorded, built from their hits (one hit per point
 * and attack of a request) as the listing hands them over, and indexed by
 * client, application and host so that evaluating a plan costs about one pass
 * over the hits, not hits × changes.
 *
 * Hits are many (the bench reads 100k): a request is a row of its client's
 * columns (client-requests.ts), its repeated texts (hosts, paths, addresses,
 * points) are shared, and a hit's payload is kept only when a regex change
 * will test it.
 */
import { InternalError } from '../errors.js';
import { hitApplication, hitCountry, hitDatacenter, hitProxyType, hitRegexIds, type ListedHit } from '../hits/read.js';
import { ClientRequests, type EvidenceHit } from './client-requests.js';
import { branch } from './tables.js';
import { pointKeyOf } from './point.js';

const NO_NUMBERS: readonly number[] = Object.freeze([]);

export interface IndexOptions {
  /** Keep each hit's payload (a regex change will test it). */
  readonly values?: boolean;
}

/** Hits grouped into their requests, per client. */
export class RequestIndex {
  private readonly clients = new Map<number, ClientRequests>();
  /** The tables below share what many hits repeat; each is looked up without building a key per hit. */
  private readonly texts = new Map<string, string>();
  private readonly numberLists = new Map<string, readonly number[]>();
  private readonly oneNumber = new Map<number, readonly number[]>();
  private readonly pointKeys = new Map<string | number, Map<string | number | undefined, string>>();
  private readonly evidences: Map<string, Map<readonly number[], Map<string, Map<readonly number[], EvidenceHit>>>> = new Map();
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
    for (const requests of this.clients.values()) requests.finish();
    for (const table of [this.texts, this.pointKeys, this.numberLists, this.oneNumber, this.evidences]) table.clear();
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
    if (!requests) this.clients.set(client, requests = new ClientRequests((text) => this.text(text)));
    const request = requests.request(hit.request_id, hitApplication(hit), hit.domain, hit.path);
    requests.describe(request, typeof hit.ip === 'string' ? this.text(hit.ip) : undefined, this.optionalText(hitCountry(hit)),
      this.optionalText(hitProxyType(hit)), this.optionalText(hitDatacenter(hit)));
    requests.record(request, hit.block_status === 'blocked', hit.time, this.evidence(hit));
  }

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

  private optionalText(value: string | undefined): string | undefined {
    return value === undefined ? undefined : this.text(value);
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

const EMPTY = new ClientRequests();
