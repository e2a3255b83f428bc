/**
 * Hits: what the service saw, one record per point and attack of a request.
 * The emulator keeps seeded hits per account and adds demo ones (demo.ts);
 * both are listed by `POST /v1/objects/hit` and scoped by
 * `POST /v1/objects/action/by_hit`.
 */

/** A hit as the API lists it. `id` and `attackid` are `[index, id]` pairs. */
export interface HitRecord {
  id: [string, string];
  clientid: number;
  type: string;
  ip: string;
  statuscode: number;
  time: number;
  value: string;
  stamps: number[];
  stamps_hash: number;
  regex: number[];
  /** Flat, like a rule's. */
  point: (string | number)[];
  /** The application; -1 is the default one. */
  poolid: number;
  attackid: [string, string];
  block_status: string;
  request_id: string;
  domain: string;
  path: string;
  protocol: string;
  known_attack: boolean;
  state: string | null;
  experimental: boolean;
  aasm_event: boolean;
  /** A hit of the service's own scanner probing the application, not traffic of its users. */
  service_scanner: boolean;
  /** What the service knew of the source: its country (ISO code), proxy type and datacenter. */
  remote_country: string;
  proxy_type: string | null;
  datacenter: string | null;
  tor: boolean;
}

/**
 * A seeded hit: what a test names; the rest is filled. `scope` (never listed)
 * makes `action/by_hit` answer these conditions instead of the ones the
 * service derives, to stand for a case where the service scopes otherwise.
 */
export type HitSeed = Partial<HitRecord> & { clientid: number; request_id: string; type: string; point: (string | number)[] } & {
  scope?: { point: (string | number)[]; type: string; value: string | null }[];
};

export interface StoredHit {
  readonly record: HitRecord;
  readonly scope?: HitSeed['scope'];
}

const INDEX = 'hits-2026.11';

export function hitFromSeed(seed: HitSeed, serial: number, nowSeconds: number): StoredHit {
  const { scope, ...fields } = seed;
  const record: HitRecord = {
    id: [INDEX, `h${serial}`],
    ip: '203.0.113.10',
    statuscode: 200,
    time: nowSeconds - 3600,
    value: '',
    stamps: [],
    stamps_hash: 0,
    regex: [],
    poolid: -1,
    attackid: [INDEX, `a${serial}`],
    block_status: 'monitored',
    domain: 'example.com',
    path: '/',
    protocol: 'https',
    known_attack: false,
    state: null,
    experimental: false,
    aasm_event: false,
    service_scanner: false,
    remote_country: 'US',
    proxy_type: null,
    datacenter: null,
    tor: false,
    ...fields,
  };
  return scope ? { record, scope } : { record };
}
