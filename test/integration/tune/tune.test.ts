/**
 * `rampart tune` as users run it (the CLI's main, in process) against the
 * emulator seeded with hits: the rules it proposes, `--write` keeping the
 * file's comments, `plan` and `apply` on the result, a second run changing
 * nothing, and the errors a person meets.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HitSeed } from '../../../src/emulator/hits/records.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const CLIENT = 10042;
const SHOP = `# The shop (application 7).
version: 1
client: ${CLIENT}
application: 7   # the storefront

rules:
  # Keep the admin panel closed.
  - name: block-admin
    type: vpatch
    attack: any
    point: [[header, HOST]]
    when:
      - { point: [path, 0], equal: admin }
`;

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator();
  policies = await policyDir({ 'shop.yaml': SHOP });
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

const rampart = (command: string, args: string[]) => runCliInProcess(
  [command, '--api-url', emulator.url, '--policies', policies.dir, ...args],
  { env: { RAMPART_API_TOKEN: TEST_TOKEN } },
);
const tune = (args: string[]) => rampart('tune', args);

const base = { clientid: CLIENT, poolid: 7, domain: 'shop.example.com', time: Math.floor(Date.now() / 1000) - 3600 };
function seed(hits: Omit<HitSeed, 'clientid'>[]): void {
  emulator.control.seedHits(hits.map((hit) => ({ ...base, ...hit })));
}

interface TuneJson {
  summary: { new: number; declared: number; unmanaged: number; hits: number };
  rules: { status: string; file: string; name?: string; rule: Record<string, unknown>; service_scope_differs?: boolean }[];
  notes: string[];
}

describe('rampart tune', () => {
  it('proposes exactly the rules the scoping and grouping give, in the file of the client and application', async () => {
    seed([
      { request_id: 'req-1', type: 'sqli', path: '/search', point: ['get', 'q'], stamps: [7730, 7731] },
      { request_id: 'req-1', type: 'xss', path: '/search', point: ['get', 'q'], stamps: [7731] },
      { request_id: 'req-1', type: 'brute', path: '/search', point: ['get', 'q'], stamps: [] },
      { request_id: 'other', type: 'xss', path: '/search', point: ['get', 'x'], stamps: [1] },
    ]);
    const result = await tune(['--request-id', 'req-1', '--attack-types', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as TuneJson;
    const when = [
      { point: ['header', 'HOST'], iequal: 'shop.example.com' }, { point: ['action_name'], equal: 'search' },
      { point: ['action_ext'], absent: true }, { point: ['path', 0], absent: true },
    ];
    expect(json.rules.map((r) => ({ status: r.status, name: r.name, rule: r.rule }))).toEqual([
      { status: 'new', name: 'stamp-7730-search-q', rule: { type: 'disable_stamp', stamp: 7730, point: [['get', 'q']], when } },
      { status: 'new', name: 'stamp-7731-search-q', rule: { type: 'disable_stamp', stamp: 7731, point: [['get', 'q']], when } },
      { status: 'new', name: 'sqli-search-q', rule: { type: 'disable_attack_type', attack: 'sqli', point: [['get', 'q']], when } },
      { status: 'new', name: 'xss-search-q', rule: { type: 'disable_attack_type', attack: 'xss', point: [['get', 'q']], when } },
    ]);
    expect(new Set(json.rules.map((r) => r.file))).toEqual(new Set([`${policies.dir}/shop.yaml`]));
    expect(json.notes).toEqual(['1 hit of brute left out: not a detector\'s false positive']);
  });

  it('shows each request first as the service saw it: host, path, point, attack, stamps and the value, cut and escaped', async () => {
    seed([{ request_id: 'req-seen', type: 'sqli', path: '/find', point: ['get', 'q'], stamps: [7730], value: `o'brien "& sons"\u001b${'x'.repeat(300)}` }]);
    const result = await tune(['--request-id', 'req-seen']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith('As the service saw them:\n  request req-seen: shop.example.com/find (application 7)\n')).toBe(true);
    expect(result.stdout).toContain(`    sqli at get q, stamps 7730: "o'brien \\"& sons\\"\\x1b${'x'.repeat(200 - 20)}…"`);
    const json = JSON.parse((await tune(['--request-id', 'req-seen', '--format', 'json'])).stdout) as { requests: { request_id: string; value: string; stamps: number[] }[] };
    expect(json.requests).toEqual([expect.objectContaining({ request_id: 'req-seen', stamps: [7730], value: expect.stringMatching(/…$/) as unknown })]);
  });

  it('proposes the narrowest rule by default: a disable_stamp, never a whole attack type where a stamp says it', async () => {
    seed([
      { request_id: 'req-narrow', type: 'sqli', path: '/find', point: ['get', 'q'], stamps: [7730] },
      { request_id: 'req-narrow', type: 'xxe', path: '/find', point: ['post', 'xml'], stamps: [] },
    ]);
    const json = JSON.parse((await tune(['--request-id', 'req-narrow', '--format', 'json'])).stdout) as TuneJson;
    expect(json.rules.map((r) => [r.rule.type, r.rule.stamp ?? r.rule.attack])).toEqual([['disable_stamp', 7730], ['disable_attack_type', 'xxe']]);
  });

  it('reads each request in a listing of its own, as the service\'s client does, without false positives, experimental hits or other events', async () => {
    seed([
      { request_id: 'req-a', type: 'sqli', path: '/find', point: ['get', 'q'], stamps: [11] },
      { request_id: 'req-a', type: 'sqli', path: '/find', point: ['get', 'z'], stamps: [12], state: 'falsepositive' },
      { request_id: 'req-a', type: 'sqli', path: '/find', point: ['get', 'y'], stamps: [13], experimental: true },
      { request_id: 'req-a', type: 'warn', path: '/find', point: ['get', 'w'], stamps: [14] },
      { request_id: 'req-b', type: 'xss', path: '/find', point: ['get', 'q'], stamps: [21], aasm_event: true },
      { request_id: 'req-b', type: 'xss', path: '/find', point: ['get', 'x'], stamps: [22] },
    ]);
    const before = emulator.control.counts()['POST /v1/objects/hit'] ?? 0;
    const result = await tune(['--request-id', 'req-a', '--request-id', 'req-b', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect((emulator.control.counts()['POST /v1/objects/hit'] ?? 0) - before).toBe(2);
    const json = JSON.parse(result.stdout) as TuneJson;
    expect(json.rules.filter((r) => r.rule.type === 'disable_stamp').map((r) => r.rule.stamp)).toEqual([11, 22]);
  });

  it('--write keeps every comment; plan shows creates, apply converges, a second run changes nothing', async () => {
    seed([{ request_id: 'req-2', type: 'sqli', path: '/api/report.tar.gz', point: ['get', 'id'], stamps: [42] }]);
    const written = await tune(['--request-id', 'req-2', '--write']);
    expect(written.code, written.stderr).toBe(0);
    const text = await policies.read('shop.yaml');
    expect(text.startsWith(SHOP.trimEnd())).toBe(true);
    for (const comment of ['# The shop (application 7).', '# the storefront', '# Keep the admin panel closed.']) expect(text).toContain(comment);
    expect(text).toMatch(/# tune: request req-2 \(\d{4}-\d\d-\d\d\)\n {2}- name: stamp-42-api-report-tar-gz-id\n/);
    expect(text).toContain('- { point: [action_ext], equal: tar.gz }');

    const planned = await rampart('plan', ['--detailed-exitcode']);
    expect(planned.code, planned.stdout + planned.stderr).toBe(2);
    expect(planned.stdout).toContain('Plan: 2 to create');
    const applied = await rampart('apply', ['--settle-timeout', '5s']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await rampart('plan', ['--detailed-exitcode'])).code).toBe(0);

    const again = await tune(['--request-id', 'req-2', '--write']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Tune: 0 new, 1 already declared');
    expect(await policies.read('shop.yaml')).toBe(text);
  });

  it('says when a declared rule with a broader scope already covers a proposal, and proposes nothing for it', async () => {
    // Stamp 42 at [get, id] is already ignored on the whole host; the hit's own scope (host and path) is narrower.
    await policies.write('shop.yaml', `${SHOP}  - name: broad-42\n    type: disable_stamp\n    stamp: 42\n    point: [[get, id]]\n    when:\n      - { point: [header, HOST], iequal: shop.example.com }\n`);
    seed([{ request_id: 'req-c', type: 'sqli', path: '/api/report.tar.gz', point: ['get', 'id'], stamps: [42] }]);
    const result = await tune(['--request-id', 'req-c', '--write']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/already covered: .* by rule broad-42 \(.*shop\.yaml:\d+\), whose scope is broader: not proposed/);
    expect(result.stdout).toContain('Tune: 0 new, 1 already declared');
    const json = JSON.parse((await tune(['--request-id', 'req-c', '--format', 'json'])).stdout) as { rules: { status: string; covered_by?: string }[] };
    expect(json.rules).toEqual([expect.objectContaining({ status: 'declared', covered_by: 'broad-42' })]);
  });

  it('uses the service\'s scope where it differs, and says so', async () => {
    seed([{
      request_id: 'req-3', type: 'xss', path: '/Search', point: ['get', 'q'], stamps: [5],
      scope: [{ point: ['header', 'HOST'], type: 'iequal', value: 'shop.example.com' }, { point: ['path', 0], type: 'equal', value: 'search' }],
    }]);
    const json = JSON.parse((await tune(['--request-id', 'req-3', '--format', 'json'])).stdout) as TuneJson;
    expect(json.rules.map((r) => [r.rule.when, r.service_scope_differs])).toEqual([
      [[{ point: ['header', 'HOST'], iequal: 'shop.example.com' }, { point: ['path', 0], equal: 'search' }], true],
    ]);
    expect(json.notes).toEqual([
      expect.stringContaining('the service scopes hits on shop.example.com/Search otherwise'),
      // `[path, 0]` is a directory: the last segment of /Search is its action_name, and equal is case-sensitive.
      expect.stringContaining('does not select that path as Rampart reads it'),
    ]);
  });

  it('a request across two hosts gets rules per host and says so; an application no file declares gets a new file', async () => {
    seed([
      { request_id: 'req-4', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [] },
      { request_id: 'req-4', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [], domain: 'cdn.example.com', poolid: 9 },
    ]);
    const result = await tune(['--request-id', 'req-4', '--write']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('note: the hits span 2 hosts (shop.example.com, cdn.example.com)');
    const created = await readFile(`${policies.dir}/tuning-${CLIENT}-app-9.yaml`, 'utf8');
    expect(created).toContain('application: 9');
    expect(created).toContain('iequal: cdn.example.com');
    // A block list, as every other policy file has.
    expect(created).toMatch(/\nrules:\n {2}# tune: request req-4 \(\d{4}-\d\d-\d\d\)\n {2}- name: /);
    const validated = await runCliInProcess(['validate', '--policies', policies.dir]);
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
  });

  it('skips a hit at a point this version does not know, with a warning naming it, and tunes the rest', async () => {
    seed([
      { request_id: 'req-odd', type: 'sqli', path: '/find', point: ['quantum_doc', 'q'], stamps: [31] },
      { request_id: 'req-odd', type: 'sqli', path: '/find', point: ['get', 'q'], stamps: [32] },
    ]);
    const result = await tune(['--request-id', 'req-odd', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as TuneJson;
    expect(json.rules.filter((r) => r.rule.type === 'disable_stamp').map((r) => r.rule.stamp)).toEqual([32]);
    expect(json.notes).toEqual(expect.arrayContaining([expect.stringMatching(/hit \S+ of request req-odd at quantum_doc › q cannot become a policy rule .*: skipped/)]));
  });

  it('escapes what the service sent when it is shown outside YAML: no terminal escape, no line break out of a fence', async () => {
    seed([
      { request_id: 'req-evil', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [1] },
      { request_id: 'req-evil', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [2], domain: 'evil.example\u001b[2J\n```\n## injected', poolid: 7 },
    ]);
    const result = await tune(['--request-id', 'req-evil', '--accept-service-scope']);
    expect(result.code, result.stderr).toBe(0);
    const notes = result.stdout.split('\n').filter((line) => line.startsWith('note:')).join('\n');
    expect(notes).toContain('evil.example\\x1b[2J\\n\\`\\`\\`');
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).not.toMatch(/^```/m);
    expect(result.stdout).not.toMatch(/^## injected/m);
  });

  it('refuses a service scope that is empty or names another host, naming the hit, unless --accept-service-scope', async () => {
    seed([{ request_id: 'req-empty', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [3], scope: [] }]);
    const refused = await tune(['--request-id', 'req-empty', '--write']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the service scopes hit \S+ of request req-empty on shop\.example\.com\/a to no condition at all: .*--accept-service-scope/);
    expect(await policies.read('shop.yaml')).toBe(SHOP);
    const accepted = await tune(['--request-id', 'req-empty', '--accept-service-scope']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/note: the service scopes hit .* to no condition at all: used, as --accept-service-scope asks/);

    seed([{ request_id: 'req-other-host', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [4], scope: [{ point: ['header', 'HOST'], type: 'iequal', value: 'admin.example.com' }] }]);
    const foreign = await tune(['--request-id', 'req-other-host']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('to the host admin.example.com, not the hit\'s shop.example.com');
  });

  it('does not widen a hit of the default application to every application', async () => {
    seed([{ request_id: 'req-default', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [6], poolid: -1 }]);
    const result = await tune(['--request-id', 'req-default', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as TuneJson;
    expect(json.rules).toEqual([]);
    expect(json.notes).toEqual(expect.arrayContaining([expect.stringContaining('of the default application (-1)')]));
  });

  it('--write keeps a CRLF file\'s line endings', async () => {
    await policies.write('shop.yaml', SHOP.replace(/\n/g, '\r\n'));
    seed([{ request_id: 'req-crlf', type: 'sqli', path: '/find', point: ['get', 'q'], stamps: [77] }]);
    const result = await tune(['--request-id', 'req-crlf', '--write']);
    expect(result.code, result.stderr).toBe(0);
    const text = await policies.read('shop.yaml');
    expect(text).toContain('stamp: 77\r\n');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('--write never appends to a tuning file of another account or application, and writes nothing', async () => {
    const foreign = 'version: 1\nclient: 99999\napplication: 9\nrules:\n  - { name: other, type: vpatch, attack: any, point: [[header, HOST]] }\n';
    await policies.write(`tuning-${CLIENT}-app-9.yaml`, foreign);
    seed([{ request_id: 'req-foreign', type: 'xss', path: '/a', point: ['get', 'q'], stamps: [5], poolid: 9 }]);
    const result = await tune(['--request-id', 'req-foreign', '--write']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/tuning-10042-app-9\.yaml exists but declares another client or application/);
    expect(await policies.read(`tuning-${CLIENT}-app-9.yaml`)).toBe(foreign);
    expect(await policies.read('shop.yaml')).toBe(SHOP);
  });

  it('a rule an unmanaged live rule already holds is not proposed again, and says how to adopt it', async () => {
    seed([{ request_id: 'req-5', type: 'xss', path: '/', point: ['get', 'q'], stamps: [] }]);
    emulator.control.seedHint({
      clientid: CLIENT, type: 'disable_attack_type', attack_type: 'xss', point: ['get', 'q'], comment: 'from the console',
      action: [
        { point: ['instance'], type: 'equal', value: '7' }, { point: ['header', 'HOST'], type: 'iequal', value: 'shop.example.com' },
        { point: ['action_name'], type: 'equal', value: '' }, { point: ['path', 0], type: 'absent', value: null },
      ],
    });
    const result = await tune(['--request-id', 'req-5']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/already held by unmanaged rule #\d+: disable_attack_type xss at get q on shop\.example\.com\/; declare it and run `rampart adopt`/);
    expect(result.stdout).toContain('Tune: 0 new, 0 already declared, 1 held by unmanaged rules');
  });

  it('--attack widens to the other hits of the same attacks on the same host, path and application', async () => {
    const attack = ['idx', 'atk-1'] as [string, string];
    seed([
      { request_id: 'req-6', type: 'xss', path: '/comment', point: ['post', 'form_urlencoded', 'text'], stamps: [11], attackid: attack },
      { request_id: 'req-7', type: 'xss', path: '/comment', point: ['post', 'form_urlencoded', 'text'], stamps: [12], attackid: attack },
      { request_id: 'req-8', type: 'xss', path: '/elsewhere', point: ['get', 'q'], stamps: [13], attackid: attack },
    ]);
    const narrow = JSON.parse((await tune(['--request-id', 'req-6', '--only', 'stamp', '--format', 'json'])).stdout) as TuneJson;
    expect(narrow.rules.map((r) => r.rule.stamp)).toEqual([11]);
    const wide = JSON.parse((await tune(['--request-id', 'req-6', '--only', 'stamp', '--attack', '--format', 'json'])).stdout) as TuneJson;
    expect(wide.rules.map((r) => r.rule.stamp)).toEqual([11, 12]);
  });

  it('an unknown request, or one older than --since, is a clear error with exit 1', async () => {
    seed([{ request_id: 'old', type: 'xss', path: '/', point: ['get', 'q'], stamps: [], time: Math.floor(Date.now() / 1000) - 40 * 86_400 }]);
    const unknown = await tune(['--request-id', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no hits of request nope in client 10042');
    const old = await tune(['--request-id', 'old']);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('request old is older than --since');
    expect((await tune(['--request-id', 'old', '--since', '60d'])).code).toBe(0);
  });

  it('a client the token cannot read is a 403 naming the client', async () => {
    await emulator.close();
    emulator = await startTestEmulator({ clients: [CLIENT] });
    const result = await tune(['--request-id', 'x', '--client', '555']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('may not read the hits of client 555');
  });
});
