/**
 * `rampart plan` end to end: the built CLI against the emulator over real HTTP.
 * Each test asserts the exit code, what stdout shows, and that the emulator saw
 * no write (plan changes nothing).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';
import { applyInProcess, CLIENT, expectNoDuplicates, hintCounts, parseJson, SAMPLE_IP_VALUES, SAMPLE_RULES, startHarness, type Harness } from '../apply/harness.js';
import type { PlanDocument } from '../../../src/plan/types.js';

let harness: Harness | undefined;
let policies: PolicyDir;

beforeEach(async () => {
  policies = await samplePolicyDir();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await policies.cleanup();
});

async function appliedHarness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  harness = await startHarness(options);
  await applyInProcess(harness, policies.dir);
  return harness;
}

describe('plan against an account that matches the policies', () => {
  it('shows no changes (exit 0), then exactly one edit (exit 2), and never writes', async () => {
    const h = await appliedHarness();
    const clean = await h.cli('plan', policies.dir, ['--detailed-exitcode']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('No changes');

    // One edit: the office address moves. Exactly that create and that delete.
    await policies.edit('shop.yaml', 'ips: [192.0.2.10]', 'ips: [192.0.2.11]');
    const edited = await h.cli('plan', policies.dir, ['--detailed-exitcode', '--format', 'json']);
    expect(edited.code, edited.stderr).toBe(2);
    const plan = parseJson<PlanDocument>(edited);
    expect(plan.summary).toMatchObject({ create: 1, delete: 1, replace: 0, unchanged: SAMPLE_RULES + SAMPLE_IP_VALUES - 1 });
    expect(plan.changes).toHaveLength(2);
    const [create, del] = plan.changes;
    expect(create).toMatchObject({ action: 'create', kind: 'ip', client: CLIENT, application: 7, object: { list: 'white', values: ['192.0.2.11/32'] } });
    expect(create && 'file' in create ? create.file : '').toMatch(/shop\.yaml$/);
    const office = h.ipObjects().find((o) => o.subnet === '192.0.2.10/32');
    expect(del).toMatchObject({ action: 'delete', kind: 'ip', client: CLIENT, ids: [office?.id] });

    expect(h.writes()).toEqual([]);
    expect(h.emulator.control.count('POST /v1/objects/hint')).toBeGreaterThan(0);
  });
});

describe('plan with the service quirks on', () => {
  it('copes with listing lag, per-request IP objects and foreign objects', async () => {
    harness = await startHarness({ listingLagMs: 600, ipGranularity: 'per-request' });
    const { control } = harness.emulator;
    // Made in the console: equal to shop.yaml's curltool-scanner (no owner mark).
    const consoleRule = control.seedHint({
      clientid: CLIENT, type: 'regex', action: [{ point: ['instance'], type: 'equal', value: '7' }],
      point: ['header', 'USER-AGENT'], regex: '.*curltool.*', attack_type: 'scanner', comment: 'flags a known scanner',
    });
    // A rule type Rampart does not manage, another owner's rule and IP object, a console IP value.
    const stamp = control.seedHint({ clientid: CLIENT, type: 'disable_stamp', action: [], stamp: 1234 });
    const otherRule = control.seedHint({
      clientid: CLIENT, type: 'service_mode', mode: 'off', action: [{ point: ['instance'], type: 'equal', value: '9' }],
      comment: 'their rule [managed-by:other-tool]',
    });
    const otherIp = control.seedIpObject({ clientid: CLIENT, list: 'black', rule_type: 'country', values: ['CN'], reason: 'theirs [managed-by:other-tool]' });
    const consoleIp = control.seedIpObject({ clientid: CLIENT, list: 'black', rule_type: 'ip_range', values: ['198.51.100.99/32'], reason: 'hand-made' });

    const applied = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s', '--format', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(parseJson<{ settled: boolean }>(applied).settled).toBe(true);

    // Right after apply settled: nothing left to do, though the listings lag.
    control.resetCalls();
    const plan = await harness.cli('plan', policies.dir, ['--detailed-exitcode', '--format', 'json']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const parsed = parseJson<PlanDocument>(plan);
    expect(parsed.changes).toEqual([]);
    expect(parsed.unmanaged.map((u) => u.id)).toContain(consoleRule.id);
    expect(harness.writes()).toEqual([]);

    // The console rule was not duplicated; the foreign objects are all still there.
    const hints = harness.hints();
    expect(hints.filter((h) => h.regex === '.*curltool.*')).toHaveLength(1);
    expect(hints.map((h) => h.id)).toEqual(expect.arrayContaining([consoleRule.id, stamp.id, otherRule.id]));
    expect(hints).toHaveLength(SAMPLE_RULES - 1 + 3);
    const ids = harness.ipObjects().map((o) => o.id);
    expect(ids).toEqual(expect.arrayContaining([otherIp.id, consoleIp.id]));
    // Per-request granularity: the two gray proxies and two datacenters are one object each.
    expect(harness.ipObjects().find((o) => o.list === 'gray')?.source_values).toEqual(['PUB', 'VPN']);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES - 1 + 3, ipValues: SAMPLE_IP_VALUES + 2 });
    expect([...hintCounts(hints).values()].every((n) => n === 1)).toBe(true);
  });
});

describe('plan when the API fails', () => {
  it('exits 1 without a plan when a listing page fails beyond the retries', async () => {
    harness = await startHarness();
    harness.emulator.control.addFault({ route: 'GET /v4/ip_rules', kind: 'status', status: 500, count: 100 });
    const result = await harness.cli('plan', policies.dir, ['--detailed-exitcode']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rampart: the service failed \(GET \/v4\/ip_rules answered 500: Internal server error\) \[api_server\]/);
    expect(result.stdout).toBe('');
    // Retried (6 attempts in all), then gave up; not one page more.
    expect(result.logs.filter((l) => l.msg === 'retrying an API call').length).toBeGreaterThanOrEqual(5);
    expect(harness.writes()).toEqual([]);
  });

  it('exits 1 on a 403 listing page, without retrying it', async () => {
    harness = await startHarness();
    harness.emulator.control.addFault({ route: 'POST /v1/objects/hint', kind: 'status', status: 403 });
    const result = await harness.cli('plan', policies.dir, ['--concurrency', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the API token may not act on client 10042 \(declared at .*\.yaml:\d+:\d+.*answered 403/);
    expect(result.stdout).toBe('');
    expect(harness.emulator.control.count('POST /v1/objects/hint')).toBe(1);
  });

  it('says the token is wrong, and never prints it', async () => {
    harness = await startHarness();
    const secret = 'wrong-token-c0ffee-4242';
    const fromEnv = await harness.cli('plan', policies.dir, [], { env: { RAMPART_API_TOKEN: secret } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toMatch(/the API refused the token while reading client 10042 .*answered 401.*\[api_auth\]/);
    expect(fromEnv.stdout).toBe('');
    expect(fromEnv.stdout + fromEnv.stderr).not.toContain(secret);

    const tokenFile = policies.scratch('token');
    await import('node:fs/promises').then((fs) => fs.writeFile(tokenFile, `${secret}\n`));
    const fromFile = await harness.cli('plan', policies.dir, ['--api-token-file', tokenFile, '--log-level', 'debug'], { env: { RAMPART_API_TOKEN: undefined } });
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toMatch(/the API refused the token while reading client 10042/);
    expect(fromFile.stdout + fromFile.stderr).not.toContain(secret);
    expect(harness.emulator.control.calls().every((c) => c.status === 401)).toBe(true);
  });
});

describe('plan output formats', () => {
  it('json, markdown and github carry the plan; --out saves the JSON plan', async () => {
    harness = await startHarness();
    const run = (args: string[], env?: Record<string, string>) =>
      harness!.cli('plan', 'policies', ['--detailed-exitcode', ...args], { cwd: policies.root, ...(env ? { env } : {}) });

    const json = await run(['--format', 'json']);
    expect(json.code).toBe(2);
    const plan = parseJson<PlanDocument>(json);
    expect(plan).toMatchObject({ format_version: 4, owner: 'rampart', summary: { create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 0, unchanged: 0 } });
    expect(plan.changes).toContainEqual(expect.objectContaining({
      action: 'create', kind: 'rule', client: CLIENT, application: 7, file: 'policies/shop.yaml', name: 'block-legacy-admin',
    }));
    expect(plan.checksum).toMatch(/^[0-9a-f]{32}$/);

    const markdown = await run(['--format', 'markdown']);
    expect(markdown.code).toBe(2);
    expect(markdown.stdout).toContain('### Rampart plan');
    expect(markdown.stdout).toContain(`**Plan: ${SAMPLE_RULES + SAMPLE_IP_VALUES} to create`);
    expect(markdown.stdout).toMatch(/```diff\n\+ rule block-legacy-admin \(vpatch\) {2}\(policies\/shop\.yaml:11\)\n\+ {5}when: /);

    // Annotations on stdout; the step summary into $GITHUB_STEP_SUMMARY.
    const summaryFile = policies.scratch('step-summary.md');
    const github = await run(['--format', 'github'], { GITHUB_STEP_SUMMARY: summaryFile });
    expect(github.code).toBe(2);
    expect(github.stdout).toMatch(/^::notice file=policies\/shop\.yaml,line=11,col=\d+,title=Rampart%3A create::\+ rule block-legacy-admin \(vpatch\) \(client 10042\)$/m);
    expect(github.stdout).not.toContain('### Rampart plan');
    expect(await readFile(summaryFile, 'utf8')).toContain('### Rampart plan');

    // Into a folder that does not exist yet, as `.rampart/plan.json` in a fresh clone (the README's tour).
    const out = policies.scratch('.rampart/plan.json');
    const text = await run(['--out', out]);
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/Plan: 24 to create/);
    const saved = JSON.parse(await readFile(out, 'utf8')) as PlanDocument;
    expect(saved.checksum).toBe(plan.checksum);
    expect(saved.changes).toEqual(plan.changes);
    expect(harness.writes()).toEqual([]);
  });

  it('reports an invalid policy with file:line:col, exit 1 and no API call', async () => {
    harness = await startHarness();
    await policies.write('bad.yaml', 'version: 1\nclient: 10042\napplication: 7\nip_lists:\n  deny:\n    - countries: [DE, UK]\n');
    const out = policies.scratch('plan.json');
    const result = await harness.cli('plan', 'policies', ['--detailed-exitcode', '--out', out], { cwd: policies.root });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/policies\/bad\.yaml:6:\d+: .*UK/);
    expect(harness.emulator.control.calls()).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('plan --concurrency', () => {
  /** The most calls the emulator was answering at once (each call's start and end from its log). */
  function mostInFlight(h: Harness): number {
    const spans = h.emulator.control.calls().map((c) => [c.time - c.durationMs, c.time] as const);
    return Math.max(...spans.map(([start]) => spans.filter(([s, e]) => s <= start && start < e).length));
  }

  it('bounds the listing calls in flight while reading, as it bounds writes, above the default too', async () => {
    // Long enough that every call a bound lets start is in flight before the first answer, even on a loaded machine
    // (at 40 ms this failed under CI load: the first answers came before the ninth call started).
    const h = await appliedHarness();
    h.emulator.control.setConfig({ latencyMs: 200 }); // after the setup's apply, which needs none
    // 3,000 more deny values: ten predicted pages of one listing, read at once.
    const addresses = Array.from({ length: 3000 }, (_, i) => `10.9.${i >> 8}.${i & 255}`);
    await policies.write('big.yaml', `version: 1\nclient: ${CLIENT}\napplication: all\nip_lists:\n  deny:\n    - ips: [${addresses.join(', ')}]\n`);
    for (const address of addresses) h.emulator.control.seedIpObject({ clientid: CLIENT, list: 'black', subnet: `${address}/32`, pools: [0], reason: '[managed-by:rampart]' });
    const read = async (flags: string[]) => {
      h.emulator.control.resetCalls();
      const result = await h.cli('plan', policies.dir, ['--detailed-exitcode', ...flags]);
      expect(result.code, result.stderr).toBe(0);
      return mostInFlight(h);
    };
    expect(await read(['--concurrency', '2'])).toBe(2);
    expect(await read([])).toBe(8);
    expect(await read(['--concurrency', '16'])).toBeGreaterThan(8);
  });
});
