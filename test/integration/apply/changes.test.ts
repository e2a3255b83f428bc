/**
 * `rampart apply` making changes safely: under listing lag, replacing a rule
 * (create before delete, and no delete when the create fails), and shrinking a
 * grouped IP object under per-request granularity (no value ever missing).
 * Every test checks the emulator's real state.
 */
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions, FaultSpec } from '../../../src/emulator/index.js';
import {
  applyInProcess, CREATE_HINT, UPDATE_HINT, CREATE_IP, DELETE_HINT, DELETE_IP, expectNoDuplicates, parseJson, SAMPLE_IP_VALUES, SAMPLE_RULES,
  useSampleSetup,
} from './harness.js';

const setup = useSampleSetup();
const start = (options: Partial<EmulatorOptions> = {}) => setup.start(options);

const apply = (args: string[] = []) => setup.harness.cli('apply', setup.policies.dir, ['--settle-timeout', '3s', ...args]);
const plan = () => setup.harness.cli('plan', setup.policies.dir, ['--detailed-exitcode']);

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

describe('changing a rule\'s comment', () => {
  it('is one update in place: the rule keeps its id, nothing is created or deleted', async () => {
    const h = await start();
    await applyInProcess(h, setup.policies.dir);
    const before = h.hints().find((r) => r.comment?.startsWith('the old admin panel'));
    await setup.policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone (edited)');
    const updated = await apply();
    expect(updated.code, updated.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([UPDATE_HINT]);
    const after = h.hints().find((r) => r.id === before?.id);
    expect(after?.comment).toMatch(/^the old admin panel is gone \(edited\) \[managed-by:rampart fp:[0-9a-f]{16} name:block-legacy-admin\]$/);
    expect((await plan()).code).toBe(0);
  });
});

describe('replacing a rule (comment edit, --rule-updates replace)', () => {
  it('creates the new rule before deleting the old; keeps the old one when the create fails', async () => {
    const h = await start();
    await applyInProcess(h, setup.policies.dir);
    const oldRule = h.hints().find((r) => r.comment?.startsWith('the old admin panel'));
    expect(oldRule).toBeDefined();

    // A create refused for good (400) and one locked beyond the retries (423): the old rule stays.
    for (const fault of [
      { route: CREATE_HINT, kind: 'status', status: 400, body: { comment: { error: 'is invalid' } } },
      { route: CREATE_HINT, kind: 'status', status: 423, count: 6 },
    ] satisfies FaultSpec[]) {
      await setup.policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone (edited)');
      h.emulator.control.resetCalls();
      h.emulator.control.addFault(fault);
      const failed = await apply(['--rule-updates', 'replace']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/✗ create rule block-legacy-admin \(.*shop\.yaml:11:5\): /);
      expect(failed.stdout).toContain(`… delete rule block-legacy-admin #${oldRule!.id} of client 10042: not applied (its replacement was not created; rule ${oldRule!.id} stays)`);
      expect(failed.stderr).toMatch(/1 change\(s\) failed and 1 were not attempted; run apply again to converge \[apply_failed\]/);
      expect(h.emulator.control.count(DELETE_HINT)).toBe(0);
      expect(h.hints().find((r) => r.id === oldRule!.id)).toBeDefined();
      expect(h.emulator.control.faults()).toEqual([]);
      await setup.policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone for good');
    }

    // Without faults: create first, then delete, in that order.
    await setup.policies.edit('shop.yaml', /comment: the old admin panel.*/, 'comment: the old admin panel is gone (edited)');
    h.emulator.control.resetCalls();
    const replaced = await apply(['--rule-updates', 'replace']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([CREATE_HINT, DELETE_HINT]);
    const admin = h.hints().filter((r) => r.type === 'vpatch' && r.attack_type === 'any');
    expect(admin.map((r) => r.comment?.replace(/ fp:[0-9a-f]{16} name:[^\]]+\]$/, ']'))).toEqual(['the old admin panel is gone (edited) [managed-by:rampart]']);
    expect(admin[0]?.id).not.toBe(oldRule!.id);
    expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});

describe('changing what a rule matches (its identity)', () => {
  it('is a replacement: when the service refuses the new rule, the old one stays', async () => {
    const h = await start();
    await applyInProcess(h, setup.policies.dir);
    const oldRule = h.hints().find((r) => r.regex === '.*curltool.*');
    expect(oldRule).toBeDefined();
    // The attack a regex rule reports cannot change in place: a new rule.
    await setup.policies.edit('shop.yaml', 'attack: scanner', 'attack: sqli');

    // The service refuses the new rule.
    h.emulator.control.addFault({ route: CREATE_HINT, kind: 'status', status: 400, body: { attack_type: { error: 'is invalid' } } });
    const refused = await apply();
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`… delete rule curltool-scanner #${oldRule!.id} of client 10042: not applied (its replacement was not created; rule ${oldRule!.id} stays)`);
    expect(h.emulator.control.count(DELETE_HINT)).toBe(0);
    expect(h.hints().find((r) => r.id === oldRule!.id)).toBeDefined();

    h.emulator.control.resetCalls();
    const replaced = await apply();
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([CREATE_HINT, DELETE_HINT]);
    expect(h.hints().filter((r) => r.regex?.includes('curltool')).map((r) => r.attack_type)).toEqual(['sqli']);
  });
});

describe('a grouped IP object shrinks under per-request granularity', () => {
  it('moves the kept values out before deleting the object, so none is ever missing', async () => {
    const h = await start({ ipGranularity: 'per-request' });
    await setup.policies.edit('account-wide.yaml', 'countries: [KP]', 'countries: [KP, IR, SY]');
    await applyInProcess(h, setup.policies.dir);
    const group = h.ipObjects().find((o) => o.rule_type === 'country');
    expect(group?.source_values).toEqual(['IR', 'KP', 'SY']);
    const countries = () => h.ipObjects().filter((o) => o.rule_type === 'country').flatMap((o) => o.source_values ?? []).sort();

    // SY goes. First with the delete failing for good: KP and IR must already be safe elsewhere.
    await setup.policies.edit('account-wide.yaml', 'countries: [KP, IR, SY]', 'countries: [KP, IR]');
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
    await applyInProcess(h, setup.policies.dir);
    await setup.policies.edit('account-wide.yaml', 'datacenters: [hetzner, ovh]', 'datacenters: [hetzner]');
    h.emulator.control.resetCalls();
    const result = await apply();
    expect(result.code, result.stderr).toBe(0);
    expect(h.writes().map((w) => w.route)).toEqual([CREATE_IP, DELETE_IP]);
    const datacenters = h.ipObjects().filter((o) => o.rule_type === 'datacenter');
    expect(datacenters.map((o) => o.source_values)).toEqual([['hetzner']]);
    expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES - 1 });
  });
});
