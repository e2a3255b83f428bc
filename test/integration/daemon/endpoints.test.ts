/**
 * `rampart run` as a real process against the emulator over HTTP: the first
 * cycle creates everything, the endpoints answer as the contract says, every
 * log line of a cycle carries its id, and the token never leaks. What the
 * endpoints show of a dry run and of failing cycles is tested in process
 * (test/integration/reconcile/endpoints.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../../helpers/emulator.js';
import {
  accountSummary, cleanupDaemons, LIST_HINTS, LIST_IP, plainPolicyDir, runArgs, SAMPLE_IP_VALUES, SAMPLE_RULES,
  samplePolicies, startDaemon, startEmulatorForDaemon, eventually, writeCalls, type LogLine,
} from '../../helpers/daemon.js';

afterEach(cleanupDaemons);

/** Modules whose lines are about the process, not a cycle. */
const PROCESS_MODULES = new Set(['server', 'watch', 'signals']);

describe('rampart run: endpoints, first cycle, logs', () => {
  it('creates everything on the first cycle and serves health, readiness, metrics and the plan', async () => {
    const emulator = await startEmulatorForDaemon();
    // The very first call waits 2 s (429 + Retry-After): long enough to see /readyz answer 503.
    emulator.control.addFault({ route: '*', kind: 'status', status: 429, retryAfterSeconds: 2, count: 1 });
    const policies = await plainPolicyDir(samplePolicies());
    const daemon = await startDaemon(runArgs(emulator.url, policies, ['--interval', '1s']));
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(daemon.url).not.toMatch(/:0$/);

    // Before the first success: alive, not ready, nothing in the plan yet.
    const early = await daemon.get('/readyz');
    expect(early.status).toBe(503);
    expect(early.json()).toMatchObject({ status: 'not ready' });
    expect((await daemon.get('/healthz')).status).toBe(200);
    await eventually(async () => (await daemon.metrics()).value('rampart_cycle_in_progress') === 1, 'the first cycle running');
    expect((await daemon.metrics()).value('rampart_reconcile_total', { result: 'success' })).toBeUndefined();

    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first).toMatchObject({ result: 'success', reasons: ['initial'], changes: { create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 0 } });
    expect(accountSummary(emulator)).toEqual({
      rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES, ownedRules: SAMPLE_RULES, ownedIpValues: SAMPLE_IP_VALUES,
    });

    const ready = await daemon.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', lastResult: 'success' });
    expect((await daemon.get('/healthz')).json()).toEqual({ status: 'ok' });

    const plan = (await daemon.get('/plan')).json();
    expect(plan.format_version).toBe(4);
    expect(plan.summary).toMatchObject({ create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 0 });
    expect(plan.changes.filter((c: { kind: string }) => c.kind === 'rule')).toHaveLength(SAMPLE_RULES);

    // A resync follows within ~0.3 s and changes nothing.
    const writesAfterFirst = writeCalls(emulator).length;
    const resync = await daemon.waitForCycle((c) => (c.reasons as string[]).includes('resync'), 'a resync', { after: 1 });
    expect(resync.result).toBe('no-op');
    expect(writeCalls(emulator)).toHaveLength(writesAfterFirst);
    expect((await daemon.get('/plan')).json().summary).toMatchObject({ create: 0, delete: 0 });

    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_reconcile_total', { result: 'success' })).toBe(1);
    expect(metrics.value('rampart_reconcile_total', { result: 'no-op' })).toBeGreaterThanOrEqual(1);
    expect(metrics.value('rampart_reconcile_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(metrics.value('rampart_changes_applied_total', { action: 'create', kind: 'rule' })).toBe(SAMPLE_RULES);
    expect(metrics.sum('rampart_changes_applied_total', { action: 'create', kind: 'ip' })).toBeGreaterThan(0);
    expect(metrics.value('rampart_policy_valid')).toBe(1);
    const lastSuccess = metrics.value('rampart_last_success_timestamp_seconds') ?? 0;
    expect(Math.abs(lastSuccess - Date.now() / 1000)).toBeLessThan(10);
    expect(metrics.sum('rampart_api_retries_total')).toBeGreaterThanOrEqual(1);

    expect((await daemon.get('/nope')).status).toBe(404);

    const result = await daemon.stop('SIGTERM');
    expect(result.code).toBe(0);

    // Every line logged while a cycle ran carries that cycle's id.
    const lines = result.logs;
    let open: string | undefined;
    const orphans: LogLine[] = [];
    for (const line of lines) {
      if (line.msg === 'cycle started') open = line.cycle as string;
      if (open !== undefined && !PROCESS_MODULES.has(line.module as string) && line.cycle !== open) orphans.push(line);
      if (line.msg === 'cycle finished') open = undefined;
    }
    expect(lines.filter((l) => l.msg === 'cycle started').length).toBeGreaterThanOrEqual(2);
    expect(orphans).toEqual([]);
    // The retry of the first call is among the cycle's lines.
    expect(lines.some((l) => l.msg === 'retrying an API call' && typeof l.cycle === 'string')).toBe(true);

    // The token appears nowhere: logs, stdout, metrics, plan.
    expect(result.stdout + result.stderr).not.toContain(TEST_TOKEN);
    expect(metrics.text).not.toContain(TEST_TOKEN);
    expect(JSON.stringify(plan)).not.toContain(TEST_TOKEN);
    // Listings were read for the account's rules and its three IP lists.
    expect(emulator.control.count(LIST_HINTS)).toBeGreaterThan(0);
    expect(emulator.control.count(LIST_IP)).toBeGreaterThanOrEqual(3);
  });
});
