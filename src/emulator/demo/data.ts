/**
 * Read-only demo data per account: attacks (some incidents, some false
 * positives) and vulnerabilities (active and closed), generated from a PRNG
 * seeded by the account id. Not persisted: it is the same every time.
 */
import { intBetween, pick, seededRandom, type Random } from './prng.js';

export interface Attack {
  id: number;
  attackid: string;
  clientid: number;
  type: string;
  domain: string;
  method: string;
  path: string;
  parameter: string;
  hits: number;
  first_time: number;
  last_time: number;
  vulnid: number | null;
  state: 'falsepositive' | null;
  block_status: 'blocked' | 'partially_blocked' | 'monitored';
  final_service_mode: string;
  statuscodes: number[];
  ip_count: number;
  remote_country: string;
}

export interface Vuln {
  id: number;
  clientid: number;
  status: 'active' | 'closed';
  type: string;
  threat: number;
  title: string;
  domain: string;
  method: string;
  path: string;
  parameter: string;
  time: number;
  validated: boolean;
  testrun_id: number | null;
}

export interface ClientDemo {
  attacks: Attack[];
  vulns: Vuln[];
}

export interface DemoCounts {
  attacks?: number;
  vulns?: number;
}

export const DEFAULT_DEMO_COUNTS = { attacks: 237, vulns: 42 } as const;

/** Standard detection types come up most; the rest of the spec's table now and then. */
const COMMON_TYPES = ['sqli', 'xss', 'rce', 'ptrav', 'crlf', 'nosqli', 'ssi'];
const OTHER_TYPES = [
  'custom_rule', 'vpatch', 'brute', 'dirbust', 'bola', 'multiple_payloads', 'blocked_source',
  'api_abuse', 'account_takeover', 'security_crawlers', 'scraping', 'resource_consumption',
  'undefined_endpoint', 'undefined_parameter', 'invalid_parameter_value', 'missing_parameter',
  'missing_auth', 'invalid_request', 'gql_doc_size', 'gql_value_size', 'gql_depth', 'gql_aliases',
  'gql_docs_per_batch', 'gql_introspection', 'gql_debug', 'credential_stuffing',
];
const DOMAINS = ['shop.example.com', 'api.example.com', 'admin.example.com', 'www.example.org'];
const PATHS = ['/login', '/api/v1/users', '/search', '/admin/settings', '/cart/checkout', '/graphql', '/static/../etc'];
const PARAMS = ['q', 'id', 'username', 'password', 'query', 'redirect', 'file'];
const COUNTRIES = ['US', 'DE', 'CN', 'RU', 'BR', 'NL', 'IN', 'FR'];
const MODES = ['monitoring', 'block', 'safe_blocking'];
const BLOCK_STATUSES = ['blocked', 'partially_blocked', 'monitored'] as const;

const DAY = 86_400;

export class DemoData {
  private readonly clients = new Map<number, ClientDemo>();

  /** The account's data, generated the first time it is asked for. */
  get(clientid: number, nowSeconds: number): ClientDemo {
    let demo = this.clients.get(clientid);
    if (!demo) {
      demo = generate(clientid, DEFAULT_DEMO_COUNTS, nowSeconds);
      this.clients.set(clientid, demo);
    }
    return demo;
  }

  /** Replaces the account's data with freshly generated sets of the given sizes. */
  seed(clientid: number, counts: DemoCounts, nowSeconds: number): ClientDemo {
    const demo = generate(clientid, { ...DEFAULT_DEMO_COUNTS, ...counts }, nowSeconds);
    this.clients.set(clientid, demo);
    return demo;
  }

  clear(): void {
    this.clients.clear();
  }
}

function generate(clientid: number, counts: Required<DemoCounts>, nowSeconds: number): ClientDemo {
  const random = seededRandom(clientid * 7919 + counts.attacks * 31 + counts.vulns);
  // Anchored to the start of the day, so the data holds still within a day.
  const anchor = Math.floor(nowSeconds / DAY) * DAY;
  const vulns = Array.from({ length: counts.vulns }, (_, i) => makeVuln(random, clientid, i + 1, anchor));
  const attacks = Array.from({ length: counts.attacks }, (_, i) => makeAttack(random, clientid, i + 1, anchor, vulns));
  return { attacks, vulns };
}

function makeAttack(random: Random, clientid: number, n: number, anchor: number, vulns: Vuln[]): Attack {
  const type = random() < 0.7 ? pick(random, COMMON_TYPES) : pick(random, OTHER_TYPES);
  const lastTime = anchor - intBetween(random, 60, 30 * DAY);
  const incident = vulns.length > 0 && random() < 0.15;
  return {
    id: n,
    attackid: `${clientid.toString(16)}-${n.toString(16).padStart(6, '0')}-${Math.floor(random() * 0xffffff).toString(16)}`,
    clientid,
    type,
    domain: pick(random, DOMAINS),
    method: pick(random, ['GET', 'POST', 'PUT']),
    path: pick(random, PATHS),
    parameter: pick(random, PARAMS),
    hits: Math.max(1, Math.floor(random() ** 3 * 5000)),
    first_time: lastTime - intBetween(random, 0, 6 * 3600),
    last_time: lastTime,
    vulnid: incident ? pick(random, vulns).id : null,
    state: !incident && random() < 0.1 ? 'falsepositive' : null,
    block_status: pick(random, BLOCK_STATUSES),
    final_service_mode: pick(random, MODES),
    statuscodes: [pick(random, [200, 403, 404, 500])],
    ip_count: intBetween(random, 1, 40),
    remote_country: pick(random, COUNTRIES),
  };
}

function makeVuln(random: Random, clientid: number, n: number, anchor: number): Vuln {
  const type = pick(random, COMMON_TYPES);
  const status = random() < 0.6 ? 'active' : 'closed';
  return {
    id: clientid * 10_000 + n,
    clientid,
    status,
    type,
    threat: intBetween(random, 10, 100),
    title: `${type.toUpperCase()} in ${pick(random, PATHS)}`,
    domain: pick(random, DOMAINS),
    method: pick(random, ['GET', 'POST']),
    path: pick(random, PATHS),
    parameter: pick(random, PARAMS),
    time: anchor - intBetween(random, DAY, 90 * DAY),
    validated: status === 'active',
    testrun_id: random() < 0.2 ? intBetween(random, 1, 500) : null,
  };
}
