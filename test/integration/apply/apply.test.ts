/**
 * `rampart apply` end to end against the emulator: convergence from empty, the
 * no-op rerun, --dry-run, the safety guard, an empty policy directory, and
 * saved plans (`apply --plan FILE`) with their staleness checks.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';
import { planChecksum } from '../../../src/plan/index.js';
import type { PlanDocument, PlanChange } from '../../../src/plan/types.js';
import {
  applyInProcess, CLIENT, CREATE_HINT, CREATE_IP, DELETE_HINT, DELETE_IP, expectNoDuplicates, parseJson, SAMPLE_IP_VALUES, SAMPLE_RULES,
  startHarness, WRITE_ROUTES, type Harness,
} from './harness.js';

let harness: Harness;
let policies: PolicyDir;

beforeEach(async () => {
  harness = await startHarness();
  policies = await samplePolicyDir();
});
afterEach(async () => {
  await harness.close();
  await policies.cleanup();
});

/** A rule made in the console: not ours, never to be deleted. */
const CONSOLE_RULE = {
  clientid: CLIENT, type: 'vpatch', point: ['header', 'X-CONSOLE'], attack_type: 'xss', comment: 'made in the console',
  action: [{ point: ['instance'], type: 'equal', value: '7' }],
};

const apply = (args: string[] = []) => harness.cli('apply', policies.dir, ['--settle-timeout', '5s', ...args]);
const plan = (args: string[] = []) => harness.cli('plan', policies.dir, ['--detailed-exitcode', ...args]);

describe('apply from an empty account', () => {
  it('creates everything, after which plan shows no changes and a rerun writes nothing', async () => {
    const first = await apply();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Plan: 24 to create, 0 to update, 0 to delete, 0 unchanged \(22 API calls\)\./);
    // Objects counted as the plan counts them; calls apart (22 writes plus the reads and the settle wait).
    expect(first.stdout).toMatch(/Apply complete: 24 created, 0 updated, 0 deleted \(\d+ API calls, \d+\.\d s\)\./);
    // 11 rule creates, 9 IP creates (one per IP; one per group of countries/proxies/datacenters).
    expect(harness.emulator.control.count(CREATE_HINT)).toBe(SAMPLE_RULES);
    expect(harness.emulator.control.count(CREATE_IP)).toBe(9);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    // The mark carries the fingerprint of the declaration each object was created from.
    expect(harness.hints().every((h) => /\[managed-by:rampart fp:[0-9a-f]{16} name:[^\s\]]+\]$/.test(h.comment ?? ''))).toBe(true);
    expect(harness.ipObjects().every((o) => /\[managed-by:rampart fp:[0-9a-f]{16}\]$/.test(o.reason ?? ''))).toBe(true);

    const clean = await plan();
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toContain('No changes');

    harness.emulator.control.resetCalls();
    const again = await apply(['--format', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(parseJson<PlanDocument>(again).changes).toEqual([]);
    expect(harness.writes()).toEqual([]);
    expect(again.logs.some((l) => l.msg === 'nothing to apply')).toBe(true);
  });

  it('reads each listing it wrote to once after its writes: the copy check takes the settle wait\'s read', async () => {
    const first = await apply();
    expect(first.code, first.stderr).toBe(0);
    const calls = harness.emulator.control.calls();
    const firstWrite = calls.findIndex((call) => WRITE_ROUTES.includes(call.route));
    const reads = (part: typeof calls) => {
      const counts = new Map<string, number>();
      for (const call of part) if (!WRITE_ROUTES.includes(call.route)) counts.set(call.route, (counts.get(call.route) ?? 0) + 1);
      return counts;
    };
    // The plan read every listing of every client once (one page each here); after the writes, at most the same again.
    const before = reads(calls.slice(0, firstWrite));
    const after = reads(calls.slice(firstWrite));
    expect(after.size).toBeGreaterThan(0);
    for (const [route, count] of after) expect(count, route).toBeLessThanOrEqual(before.get(route) ?? 0);
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    const dry = await apply(['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Plan: 24 to create/);
    expect(dry.stdout).not.toMatch(/Apply complete/);
    expect(harness.writes()).toEqual([]);
    expect(harness.hints()).toEqual([]);
    expect(harness.ipObjects()).toEqual([]);
  });
});

describe('the safety guard', () => {
  it('refuses to delete most owned objects without --force, and deletes them with it', async () => {
    await applyInProcess(harness, policies.dir);
    await policies.remove('api.yaml');
    await policies.remove('account-wide.yaml');
    await policies.remove('false-positives.yaml');

    const refused = await apply();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refusing: the plan deletes 14 of the 24 objects owned by "rampart" (58.3%), more than the 30% limit.');
    expect(refused.stderr).toContain('[unsafe_plan]');
    expect(harness.writes()).toEqual([]);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });

    const forced = await apply(['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    // The client's seven rule deletes in one call, and its IP deletes batched per list (deny, allow, gray), each naming its list.
    expect(harness.writes().map((w) => w.route).sort()).toEqual([DELETE_IP, DELETE_IP, DELETE_IP, DELETE_HINT].sort());
    // What shop.yaml and abuse.yaml declare is left: 4 + 2 rules, 4 IP values.
    expect(expectNoDuplicates(harness)).toEqual({ rules: 6, ipValues: 4 });
  });

  it('an empty or missing policy directory is an error, never "No changes", and deletes nothing', async () => {
    await applyInProcess(harness, policies.dir);
    for (const file of ['api.yaml', 'account-wide.yaml', 'shop.yaml', 'false-positives.yaml', 'abuse.yaml']) await policies.remove(file);
    harness.emulator.control.resetCalls();

    const planned = await plan();
    expect(planned.code).toBe(1);
    expect(planned.stdout).not.toContain('No changes');
    expect(planned.stderr).toContain(`policy directory ${policies.dir} declares nothing`);
    expect(planned.stderr).toContain('[no_policies]');
    const empty = await apply(['--force']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('pass --allow-empty if that is intended');
    const missing = await harness.cli('plan', `${policies.dir}-typo`, []);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`policy directory ${policies.dir}-typo does not exist`);
    expect(harness.emulator.control.calls()).toEqual([]);

    const allowed = await apply(['--force', '--allow-empty']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.logs.some((l) => l.msg === 'no policy files: nothing is managed, nothing is deleted')).toBe(true);
    expect(harness.emulator.control.calls()).toEqual([]);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});

describe('apply --plan FILE', () => {
  it('applies exactly the saved plan', async () => {
    await policies.edit('shop.yaml', 'ips: [192.0.2.10]', 'ips: [192.0.2.10, 192.0.2.20]');
    const file = policies.scratch('plan.json');
    const saved = await plan(['--out', file]);
    expect(saved.code).toBe(2);
    const planned = JSON.parse(await readFile(file, 'utf8')) as PlanDocument;

    const applied = await apply(['--plan', file, '--format', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    const report = parseJson<{ checksum: string; objects: Record<string, number>; results: { index: number; status: string }[] }>(applied);
    expect(report.checksum).toBe(planned.checksum);
    // Objects counted as the plan counted them.
    expect(report.objects).toEqual({ create: planned.summary.create, update: planned.summary.update, replace: planned.summary.replace, delete: planned.summary.delete });
    expect(report.results.map((r) => r.status)).toEqual(planned.changes.map(() => 'applied'));
    // One write call per planned change, nothing more (answered in any order: 8 at once).
    expect(harness.writes().map((w) => w.route).sort()).toEqual(planned.changes.map((c) => (c.kind === 'rule' ? CREATE_HINT : CREATE_IP)).sort());
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + 1 });
  });

  it('refuses a plan made stale by a policy edit, a live change, or an edit of the plan file', async () => {
    const file = policies.scratch('plan.json');
    expect((await plan(['--out', file])).code).toBe(2);

    // The policies changed since.
    await policies.edit('shop.yaml', 'reason: office', 'reason: head office');
    const policyEdit = await apply(['--plan', file]);
    expect(policyEdit.code).toBe(1);
    expect(policyEdit.stderr).toMatch(/the policies changed since the plan was made; run plan again \[stale_plan\]/);
    expect(harness.writes()).toEqual([]);
    await policies.edit('shop.yaml', 'reason: head office', 'reason: office');

    // Someone wrote to the account since.
    const seeded = harness.emulator.control.seedIpObject({ clientid: CLIENT, list: 'gray', rule_type: 'country', values: ['BR'], reason: 'console' });
    const liveChange = await apply(['--plan', file]);
    expect(liveChange.code).toBe(1);
    expect(liveChange.stderr).toMatch(/the live state changed since the plan was made.*\[stale_plan\]/);
    expect(harness.writes()).toEqual([]);
    await harness.emulator.call('DELETE', '/v4/ip_rules', { filter: { clientid: CLIENT, id: [seeded.id] } });
    harness.emulator.control.resetCalls();

    // The plan file itself was edited.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"192.0.2.10/32"', '"192.0.2.99/32"'));
    const tampered = await apply(['--plan', file]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/was modified after it was made \(checksum mismatch\); make a new plan \[stale_plan\]/);

    // It did not write either; the untouched plan still applies.
    expect(harness.writes()).toEqual([]);
    await writeFile(file, text);
    const good = await apply(['--plan', file]);
    expect(good.code, good.stderr).toBe(0);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });

  it('takes the owned count from the live listing, never from the file', async () => {
    await applyInProcess(harness, policies.dir);
    await policies.remove('api.yaml');
    await policies.remove('account-wide.yaml');
    await policies.remove('false-positives.yaml');
    const file = policies.scratch('plan.json');
    expect((await plan(['--out', file])).code).toBe(2);

    // The checksum covers the changes only: a larger owned count makes 14 deletes look like a few percent.
    const saved = JSON.parse(await readFile(file, 'utf8')) as PlanDocument;
    await writeFile(file, JSON.stringify({ ...saved, safety: { ...saved.safety, ok: true, owned_count: 1000, share: 0.011 } }));
    const refused = await apply(['--plan', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refusing: the plan deletes 14 of the 24 objects owned by "rampart" (58.3%)');
    expect(refused.stderr).toContain('[unsafe_plan]');
    expect(harness.writes()).toEqual([]);
  });

  it('refuses changes the policies and live state do not produce, even with a recomputed checksum', async () => {
    await applyInProcess(harness, policies.dir);
    const consoleRule = harness.emulator.control.seedHint(CONSOLE_RULE);
    await policies.edit('shop.yaml', 'comment: flags a known scanner', 'comment: flags a known scanner (v2)');
    const file = policies.scratch('plan.json');
    expect((await plan(['--out', file])).code).toBe(2);
    harness.emulator.control.resetCalls();

    // Point the rule's update at the console rule and re-sign the file: the checksum is no signature.
    const saved = JSON.parse(await readFile(file, 'utf8')) as PlanDocument;
    const changes: PlanChange[] = saved.changes.map((c) => (c.action === 'update' ? { ...c, id: consoleRule.id } : c));
    expect(changes).not.toEqual(saved.changes);
    await writeFile(file, JSON.stringify({ ...saved, changes, checksum: planChecksum(changes) }));
    const tampered = await apply(['--plan', file]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain(`${file} holds changes that its policies and live state do not produce`);
    expect(tampered.stderr).toContain('[plan_mismatch]');
    expect(harness.writes()).toEqual([]);
    expect(harness.hints().some((h) => h.id === consoleRule.id)).toBe(true);

    // The untouched plan still applies.
    await writeFile(file, JSON.stringify(saved));
    const good = await apply(['--plan', file]);
    expect(good.code, good.stderr).toBe(0);
    expect(harness.hints().some((h) => h.id === consoleRule.id)).toBe(true);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES + 1, ipValues: SAMPLE_IP_VALUES });
  });
});
