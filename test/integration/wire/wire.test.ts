/**
 * The wire conformance suite: the exact request each endpoint Rampart calls
 * receives, for a representative declaration of every rule kind and every
 * IP-list shape, pinned in test/fixtures/wire/ beside the public source that
 * shows the service's own client sends that shape (its Go library or its
 * Terraform provider: repository, file, function, commit), or an explicit
 * "no public source" where none does. A body that changes fails here, and
 * every pinned write is sent to the emulator, which refuses what the service's
 * client never sends.
 *
 * `RAMPART_WIRE_UPDATE=1 npx vitest run test/integration/wire` rewrites the
 * pinned requests (never the evidence): review the diff like any other.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import { ipRuleCreateRequest } from '../../../src/live/ip-backends/v4-requests.js';
import { hintCreateRequest, hintUpdateRequest } from '../../../src/apply/classes/rule-requests.js';
import { readAttackHits, readRequestHits } from '../../../src/hits/read.js';
import { readHitWindow } from '../../../src/hits/read-window.js';
import { ipBackendOf } from '../../../src/live/ip-backends/index.js';
import { liveRuleFromHint } from '../../../src/live/normalize-hint.js';
import { ipGroupKey, type IpEntry } from '../../../src/model/ip.js';
import type { DesiredRule } from '../../../src/model/rule.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { KIND_NAMES, ruleKind } from '../../../src/rules/registry.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'wire');
const UPDATE = process.env.RAMPART_WIRE_UPDATE === '1';
const CLIENT = 10042;
const OWNER = 'rampart';
const NOW = new Date('2026-11-01T00:00:00Z');

/** One request as sent: method, path (with its query) and body. */
interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

/** A pinned fixture: what is declared (or called), what goes on the wire, and why that shape. */
interface WireFixture {
  readonly what: string;
  /** The rule as written in a policy (rule kinds), or the IP lists of one. */
  readonly declaration?: unknown;
  readonly requests: Readonly<Record<string, WireRequest>>;
  /** One line per source: `owner/repo path function @commit: what it shows`, or `no public source: …`. */
  readonly evidence: readonly string[];
}

const fixturePath = (name: string) => join(FIXTURES, `${name}.json`);

function readFixture(name: string): WireFixture | undefined {
  try {
    return JSON.parse(readFileSync(fixturePath(name), 'utf8')) as WireFixture;
  } catch {
    return undefined;
  }
}

/** Compares the requests with the pinned ones; with RAMPART_WIRE_UPDATE=1 pins them instead, evidence kept. */
function expectPinned(name: string, what: string, declaration: unknown, requests: Readonly<Record<string, WireRequest>>): WireFixture {
  const pinned = readFixture(name);
  if (UPDATE) {
    const fixture: WireFixture = { what, ...(declaration === undefined ? {} : { declaration }), requests, evidence: pinned?.evidence ?? [] };
    writeFileSync(fixturePath(name), `${pretty(fixture)}\n`);
    return fixture;
  }
  expect(pinned, `${name}: no pinned fixture (run with RAMPART_WIRE_UPDATE=1 and add its evidence)`).toBeDefined();
  expect(JSON.parse(JSON.stringify(requests)), `${name}: the request changed`).toEqual(pinned?.requests);
  return pinned as WireFixture;
}

/** JSON with objects one key a line and flat lists (a point, values) on one line, so a diff reads. */
function pretty(value: unknown, indent = ''): string {
  const flat = (v: unknown): boolean => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((item) => item === null || typeof item !== 'object'));
  // A list of long strings (the evidence) one item a line.
  const short = !Array.isArray(value) || JSON.stringify(value).length <= 120;
  if (short && (flat(value) || (Array.isArray(value) && value.every(flat)))) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${pretty(item, inner)}`).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pretty(item, inner)}`).join(',\n')}\n${indent}}`;
}

/** Records each call and answers it with `answer(method, path)`. */
function recordingApi(answer: (method: string, path: string) => unknown = () => []) {
  const sent: WireRequest[] = [];
  const http = {
    call: (method: string, path: string, body?: unknown) => {
      sent.push(body === undefined ? { method, path } : { method, path, body: JSON.parse(JSON.stringify(body)) as unknown });
      return Promise.resolve(answer(method, path));
    },
  } as unknown as ApiClient;
  return { api: new ServiceApi(http), sent };
}

function compileRule(rule: Readonly<Record<string, unknown>>): DesiredRule {
  const text = stringify({ version: 1, client: CLIENT, application: 7, rules: [rule] });
  const result = loadPolicyTexts([{ file: 'wire.yaml', text }], { now: NOW });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const [compiled] = result.desired?.rules ?? [];
  if (!compiled) throw new Error(`${String(rule.type)}: compiled to nothing`);
  return compiled;
}

/** A representative rule of the kind: its first example, with a regex rule named by id where it needs one. */
function declarationOf(kind: string): Record<string, unknown> {
  const [example] = ruleKind(kind).examples;
  return { name: `wire-${kind}`, type: kind, ...example };
}

let emulator: TestEmulator;
let emulatorApi: ServiceApi;
let closeEmulator: () => Promise<void>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  const http = new ApiClient({ baseUrl: emulator.url, credentials: { token: TEST_TOKEN } });
  emulatorApi = new ServiceApi(http);
  closeEmulator = async () => {
    await http.close();
    await emulator.close();
  };
});
afterAll(async () => closeEmulator());

/** A regex rule of the account for `ignore_regex` to point at: its `regex_id`. */
async function regexIdFor(client: number): Promise<number> {
  const created = await emulatorApi.createHint({ clientid: client, type: 'experimental_regex', regex: 'x', attack_type: 'sqli', point: [['get', 'q']], action: [], validated: false, variativity_disabled: true });
  return created.regex_id as number;
}

function checkEvidence(name: string, fixture: WireFixture): void {
  expect(fixture.evidence.length, `${name}: every pinned shape names its public source, or says there is none`).toBeGreaterThan(0);
  for (const line of fixture.evidence) {
    expect(line, `${name}: evidence is "owner/repo path function @commit: …" or "no public source: …"`).toMatch(/^(?:[\w.-]+\/[\w.-]+ \S+ .+ @[0-9a-f]{7,40}: .+|no public source: .+)$/);
  }
}

describe('the wire: rule kinds', () => {
  it('pins all 26 kinds, no more, no less', () => {
    const pinned = readdirSync(FIXTURES).filter((f) => f.startsWith('rule-')).map((f) => f.slice('rule-'.length, -'.json'.length));
    if (!UPDATE) expect(pinned.sort()).toEqual([...KIND_NAMES].sort());
    expect(KIND_NAMES).toHaveLength(26);
  });

  for (const kind of KIND_NAMES) {
    it(`${kind}: create and update bodies, accepted by the service's rules`, async () => {
      const declaration = declarationOf(kind);
      const rule = compileRule(declaration);
      const create = hintCreateRequest(rule, OWNER, String(declaration.name));

      // The create against the emulator's own reading of the service; its answer is the rule as stored.
      const client = 40000 + KIND_NAMES.indexOf(kind);
      const sent = { ...create, clientid: client } as Record<string, unknown>;
      if ('regex_id' in sent) sent.regex_id = await regexIdFor(client);
      const created = await emulatorApi.createHint(sent as never);
      const stored = liveRuleFromHint(created);
      // Counters cannot be changed; every other kind's update carries its whole surface, as stored where the policy is silent.
      const update = ruleKind(kind).undeletable === 'always' || !stored ? undefined : hintUpdateRequest(rule, { ...stored, client: CLIENT }, OWNER, String(declaration.name));
      const requests: Record<string, WireRequest> = {
        create: { method: 'POST', path: '/v1/objects/hint/create', body: create },
        ...(update ? { update: { method: 'PUT', path: '/v3/hint/{id}', body: update } } : {}),
      };
      const fixture = expectPinned(`rule-${kind}`, `a ${kind} rule: created, then updated in place with its whole mutable surface`, declaration, requests);
      if (!UPDATE) checkEvidence(`rule-${kind}`, fixture);
      if (update) {
        const answer = await emulatorApi.updateHint(created.id, update);
        // Nothing the update did not mean to change moved: the service's reset of a left-out field would show here.
        expect(liveRuleFromHint(answer)?.fields).toEqual(stored?.fields);
      }
    });
  }
});

describe('the wire: IP lists', () => {
  const lists = {
    deny: [
      { ips: ['203.0.113.0/24'], reason: 'scanner', expires: 'never' },
      { countries: ['KP', 'IR'], expires: '2070-01-01' },
      { proxies: ['TOR', 'VPN'] },
      { datacenters: ['aws'] },
    ],
    allow: [{ ips: ['198.51.100.7'] }],
    gray: [{ ips: ['2001:db8::/48'] }],
  };

  it('creates one request per entry group, in the shape of each rule type', async () => {
    const text = stringify({ version: 1, client: CLIENT, application: 'all', ip_lists: lists });
    const result = loadPolicyTexts([{ file: 'wire.yaml', text }], { now: NOW });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const groups = new Map<string, IpEntry[]>();
    for (const entry of result.desired?.ipEntries ?? []) {
      const key = entry.ruleType === 'ip_range' ? `${entry.list}|${entry.value}` : ipGroupKey(entry);
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    const requests: Record<string, WireRequest> = {};
    for (const entries of groups.values()) {
      const [first] = entries as [IpEntry];
      requests[`create ${first.list} ${first.ruleType} ${first.value}`] = { method: 'POST', path: '/v4/ip_rules', body: ipRuleCreateRequest(entries, OWNER, false) };
    }
    const fixture = expectPinned('ip-lists-create', 'IP-list entries of every rule type and list, created', lists, requests);
    if (!UPDATE) checkEvidence('ip-lists-create', fixture);
    for (const request of Object.values(requests)) await emulatorApi.createIpRule(request.body as never);
  });
});

describe('the wire: the successor IP-list API (groups)', () => {
  const lists = {
    deny: [{ ips: ['203.0.113.0/24'], reason: 'scanner', expires: '2070-01-01' }, { countries: ['KP', 'IR'], expires: '2070-01-01' }],
    gray: [{ datacenters: ['aws'], expires: '2070-01-01' }],
  };

  it('creates one group per value, reads a list, deletes by rule type', async () => {
    const text = stringify({ version: 1, client: CLIENT, application: 'all', ip_lists: lists });
    const result = loadPolicyTexts([{ file: 'wire.yaml', text }], { now: NOW });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const entries = result.desired?.ipEntries ?? [];
    const { api, sent } = recordingApi((method) => (method === 'GET' ? { objects: [] } : null));
    const groups = new ServiceApi((api as unknown as { http: ApiClient }).http, 'groups');
    const backend = ipBackendOf(groups);
    const subnet = entries.filter((e) => e.ruleType === 'ip_range');
    const countries = entries.filter((e) => e.ruleType === 'country');
    await backend.create(groups, subnet, OWNER, false, {});
    await backend.create(groups, countries, OWNER, false, {});
    await backend.list(groups, CLIENT, 'black');
    await backend.delete(groups, CLIENT, 'black', [{ id: 21, ruleType: 'country' }, { id: 22, ruleType: 'ip_range' }, { id: 23, ruleType: 'country' }], {});
    const requests = Object.fromEntries(sent.map((request, index) => [`request ${index + 1}`, request]));
    const fixture = expectPinned('ip-groups', 'a subnet and two countries created on the groups API (one group per value), a list read, groups deleted', lists, requests);
    if (!UPDATE) checkEvidence('ip-groups', fixture);
    // The pinned creates, against the emulator's own reading of the groups API.
    const emulated = new ServiceApi(new ApiClient({ baseUrl: emulator.url, credentials: { token: TEST_TOKEN } }), 'groups');
    try {
      for (const request of sent.filter((r) => r.method === 'POST')) {
        await emulated.createAccessRules(50001, request.body as never);
      }
      const listed = await ipBackendOf(emulated).list(emulated, 50001, 'black');
      expect(listed.map((entry) => entry.value).sort()).toEqual(['203.0.113.0/24', 'IR', 'KP']);
      expect(new Set(listed.map((entry) => entry.id)).size).toBe(3);
    } finally {
      await emulated.http.close();
    }
  });
});

describe('the wire: listings, deletes and hits', () => {
  const cases: { name: string; what: string; call: (api: ServiceApi) => Promise<unknown>; answer?: unknown }[] = [
    { name: 'hint-list', what: 'one page of the rules of a client', call: (api) => api.listHints(CLIENT, 0) },
    { name: 'hint-delete', what: 'rules deleted in one call', call: (api) => api.deleteHints(CLIENT, [11, 12]) },
    {
      name: 'credential-configs', what: 'the credential-stuffing rules of a client, both lists in one call',
      call: (api) => api.listCredentialRules(CLIENT), answer: { default: [], custom: [] },
    },
    { name: 'application-list', what: 'one page of a client\'s applications', call: (api) => api.listApplications(CLIENT, 0) },
    { name: 'ip-list', what: 'one page of a client\'s deny list', call: (api) => api.listIpRules(CLIENT, 'black', 0), answer: { objects: [] } },
    { name: 'ip-delete', what: 'IP-list entries deleted in one call', call: (api) => api.deleteIpRules(CLIENT, 'black', [21, 22]) },
    {
      name: 'hits-by-request', what: 'the hits of two requests, one listing each, with the client\'s standard filters',
      call: (api) => readRequestHits(api, CLIENT, ['req-1', 'req-2'], { window: { from: 1_761_955_200, to: 1_777_766_400 } }),
    },
    {
      name: 'hits-by-attack', what: 'the hits of attacks, by their [index, id] pairs, in a window',
      call: (api) => readAttackHits(api, CLIENT, [['hits-2026.11', 'a1']], { window: { from: 1_777_000_000, to: 1_777_766_400 } }),
    },
    {
      name: 'hits-for-impact', what: '--impact: the hits of the applications a plan touches in a window, then the experimental regexes\' dry run',
      call: async (api) => {
        const window = { from: 1_777_000_000, to: 1_777_604_800 };
        await readHitWindow(api, CLIENT, { poolid: [7, 8] }, { window }, () => undefined);
        await readHitWindow(api, CLIENT, { poolid: [7, 8] }, { window, experimental: true }, () => undefined);
      },
    },
    {
      name: 'action-by-hit', what: 'the conditions the service scopes a hit to',
      call: (api) => api.actionByHit(['hits-2026.11', 'h1']), answer: { conditions: [], clientid: CLIENT },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.what}`, async () => {
      const { api, sent } = recordingApi(() => c.answer ?? []);
      await c.call(api);
      const requests = Object.fromEntries(sent.map((request, index) => [sent.length === 1 ? 'request' : `request ${index + 1}`, request]));
      const fixture = expectPinned(`endpoint-${c.name}`, c.what, undefined, requests);
      if (!UPDATE) checkEvidence(`endpoint-${c.name}`, fixture);
    });
  }
});
