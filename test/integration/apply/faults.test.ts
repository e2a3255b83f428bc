/**
 * `rampart apply` against a misbehaving service: scripted faults on the write
 * routes, listing lag, replacements whose create fails, and a grouped IP
 * object shrinking under per-request granularity. Every test checks the
 * emulator's real state: converged, and never a duplicate.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';
import type { EmulatorOptions, FaultSpec } from '../../../src/emulator/index.js';
import {
  CREATE_HINT, CREATE_IP, DELETE_HINT, DELETE_IP, expectNoDuplicates, parseJson, SAMPLE_IP_VALUES, SAMPLE_RULES,
  startHarness, type Harness,
} from './harness.js';

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

async function start(options: Partial<EmulatorOptions> = {}): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

const apply = (args: string[] = []) => harness!.cli('apply', policies.dir, ['--settle-timeout', '3s', ...args]);
const plan = () => harness!.cli('plan', policies.dir, ['--detailed-exitcode']);

describe('faults on the write routes', () => {
  const cases: { name: string; faults: FaultSpec[]; args?: string[]; emulator?: Partial<EmulatorOptions>; detail?: string }[] = [
    { name: '429 with Retry-After', faults: [{ route: CREATE_HINT, kind: 'status', status: 429, retryAfterSeconds: 1, count: 2 }] },
    { name: '423 locked', faults: [{ route: CREATE_HINT, kind: 'status', status: 423, count: 3 }] },
    { name: '503', faults: [{ route: CREATE_IP, kind: 'status', status: 503, count: 3 }, { route: CREATE_HINT, kind: 'status', status: 503, count: 2 }] },
    // The rule create's outcome is unknown: the listing is checked (up to the settle timeout) before creating again.
    { name: 'reset before the response', faults: [{ route: CREATE_IP, kind: 'reset' }, { route: CREATE_HINT, kind: 'reset' }], args: ['--settle-timeout', '1s'] },
    {
      name: 'reset after the write',
      faults: [{ route: CREATE_IP, kind: 'reset-after-write' }, { route: CREATE_HINT, kind: 'reset-after-write', count: 2 }],
      detail: 'outcome was unknown; found in the listing',
    },
    {
      name: 'reset after the write, listing lagging 1.2 s',
      faults: [{ route: CREATE_HINT, kind: 'reset-after-write' }],
      emulator: { listingLagMs: 1200 },
      detail: 'outcome was unknown; found in the listing',
    },
    { name: 'hang (client timeout)', faults: [{ route: CREATE_IP, kind: 'hang' }, { route: CREATE_HINT, kind: 'hang' }], args: ['--request-timeout', '400', '--settle-timeout', '1s'] },
  ];

  for (const { name, faults, args = [], emulator, detail } of cases) {
    it(`${name}: converges without duplicates`, async () => {
      const h = await start(emulator);
      for (const fault of faults) h.emulator.control.addFault(fault);
      const result = await apply(['--format', 'json', ...args]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const report = parseJson<{ summary: { failed: number; skipped: number }; settled: boolean; results: { detail?: string }[] }>(result);
      expect(report.summary).toMatchObject({ failed: 0, skipped: 0 });
      if (detail) expect(report.results.map((r) => r.detail)).toContain(detail);
      expect(report.settled).toBe(true);
      // Every scripted fault was met, and the client retried or checked past it.
      expect(h.emulator.control.faults()).toEqual([]);
      expect(h.emulator.control.calls().filter((c) => c.status !== 200).length).toBeGreaterThanOrEqual(faults.reduce((n, f) => n + (f.count ?? 1), 0));
      expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
      // From empty nothing is deleted, faults or not.
      expect(h.writes().filter((w) => w.route === DELETE_HINT || w.route === DELETE_IP)).toEqual([]);
    });
  }

  it('429 waits for Retry-After', async () => {
    const h = await start();
    h.emulator.control.addFault({ route: CREATE_IP, kind: 'status', status: 429, retryAfterSeconds: 1 });
    const result = await apply(['--concurrency', '1']);
    expect(result.code, result.stderr).toBe(0);
    const retry = result.logs.find((l) => l.msg === 'retrying an API call');
    expect(retry).toMatchObject({ route: CREATE_IP, delayMs: 1000, code: 'api_rate_limited' });
    const [limited, next] = h.emulator.control.calls().filter((c) => c.route === CREATE_IP);
    expect(limited?.status).toBe(429);
    expect((next?.time ?? 0) - (next?.durationMs ?? 0) - (limited?.time ?? 0)).toBeGreaterThanOrEqual(950);
  });
});

describe('listing lag', () => {
  it('apply waits until the listings show its writes; a plan right after shows no changes', async () => {
    const h = await start({ listingLagMs: 1500 });
    const started = Date.now();
    const result = await apply(['--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson<{ settled: boolean }>(result).settled).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    const clean = await plan();
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toContain('No changes');
    expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});

describe('replacing a rule (comment edit)', () => {
  it('creates the new rule before deleting the old; keeps the old one when the create fails', async () => {
    const h = await start();
    expect((await apply()).code).toBe(0);
    const oldRule = h.hints().find((r) => r.comment?.startsWith('the old admin panel'));
    expect(oldRule).toBeDefined();

    // A create refused for good (400) and one locked beyond the retries (423): the old rule stays.
    for (const fault of [
      { route: CREATE_HINT, kind: 'status', status: 400, body: { comment: { error: 'is invalid' } } },
      { route: CREATE_HINT, kind: 'status', status: 423, count: 6 },
    ] satisfies FaultSpec[]) {
      await policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone (edited)');
      h.emulator.control.resetCalls();
      h.emulator.control.addFault(fault);
      const failed = await apply();
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/✗ create rule block-legacy-admin \(.*shop\.yaml:11\): /);
      expect(failed.stdout).toContain(`… delete rule ${oldRule!.id} of client 10042: not applied (its replacement was not created; rule ${oldRule!.id} stays)`);
      expect(failed.stderr).toMatch(/1 change\(s\) failed and 1 were not attempted; run apply again to converge \[apply_failed\]/);
      expect(h.emulator.control.count(DELETE_HINT)).toBe(0);
      expect(h.hints().find((r) => r.id === oldRule!.id)).toBeDefined();
      expect(h.emulator.control.faults()).toEqual([]);
      await policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone for good');
    }

    // Without faults: create first, then delete, in that order.
    await policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone (edited)');
    h.emulator.control.resetCalls();
    const replaced = await apply();
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([CREATE_HINT, DELETE_HINT]);
    const admin = h.hints().filter((r) => r.type === 'vpatch' && r.attack_type === 'any');
    expect(admin.map((r) => r.comment)).toEqual(['the old admin panel is gone (edited) [managed-by:rampart]']);
    expect(admin[0]?.id).not.toBe(oldRule!.id);
    expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});

describe('a grouped IP object shrinks under per-request granularity', () => {
  it('moves the kept values out before deleting the object, so none is ever missing', async () => {
    const h = await start({ ipGranularity: 'per-request' });
    await policies.edit('account-wide.yaml', 'countries: [KP]', 'countries: [KP, IR, SY]');
    expect((await apply()).code).toBe(0);
    const group = h.ipObjects().find((o) => o.rule_type === 'country');
    expect(group?.source_values).toEqual(['IR', 'KP', 'SY']);
    const countries = () => h.ipObjects().filter((o) => o.rule_type === 'country').flatMap((o) => o.source_values ?? []).sort();

    // SY goes. First with the delete failing for good: KP and IR must already be safe elsewhere.
    await policies.edit('account-wide.yaml', 'countries: [KP, IR, SY]', 'countries: [KP, IR]');
    h.emulator.control.resetCalls();
    h.emulator.control.addFault({ route: DELETE_IP, kind: 'status', status: 503, count: 6 });
    const failed = await apply();
    expect(failed.code).toBe(1);
    expect(h.writes().map((w) => w.route)).toEqual([CREATE_IP, ...Array<string>(6).fill(DELETE_IP)]);
    expect(countries()).toEqual(['IR', 'KP', 'SY']);
    expect(h.ipObjects().find((o) => o.id === group?.id)?.source_values).toEqual(['SY']);

    // Then the rerun finishes the job.
    h.emulator.control.resetCalls();
    const done = await apply();
    expect(done.code, done.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([DELETE_IP]);
    expect(countries()).toEqual(['IR', 'KP']);
    expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + 1 });
    expect((await plan()).code).toBe(0);
  });

  it('in one go: a forced create, then the delete, and the exact final state', async () => {
    const h = await start({ ipGranularity: 'per-request' });
    expect((await apply()).code).toBe(0);
    await policies.edit('account-wide.yaml', 'datacenters: [hetzner, ovh]', 'datacenters: [hetzner]');
    h.emulator.control.resetCalls();
    const result = await apply();
    expect(result.code, result.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([CREATE_IP, DELETE_IP]);
    const datacenters = h.ipObjects().filter((o) => o.rule_type === 'datacenter');
    expect(datacenters.map((o) => o.source_values)).toEqual([['hetzner']]);
    expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES - 1 });
  });
});
