/**
 * What the daemon's endpoints show of a dry run and of failing first cycles,
 * in process (test/helpers/daemon-in-process.ts): the real cycle, loop and
 * endpoints over HTTP against the emulator; resyncs are asked for, not waited for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  accountSummary, cleanupDaemons, LIST_HINTS, plainPolicyDir, SAMPLE_IP_VALUES, SAMPLE_RULES,
  samplePolicies, startEmulatorForDaemon, eventually, writeCalls,
} from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';

afterEach(cleanupDaemons);

describe('the daemon endpoints: dry run and readiness', () => {
  it('--dry-run writes nothing and serves the pending changes on /plan', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies, dryRun: true });
    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first).toMatchObject({ result: 'skipped', changes: { create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 0 } });
    daemon.resync();
    await daemon.waitForCycle(() => true, 'a second cycle', { after: 1 });

    const plan = (await daemon.get('/plan')).json();
    expect(plan.summary).toMatchObject({ create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 0 });
    expect(plan.changes.length).toBeGreaterThan(0);
    expect(plan.changes.every((c: { action: string }) => c.action === 'create')).toBe(true);
    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_plan_pending_changes', { action: 'create' })).toBe(SAMPLE_RULES + SAMPLE_IP_VALUES);
    expect(metrics.sum('rampart_changes_applied_total')).toBe(0);
    expect((await daemon.get('/readyz')).status).toBe(200);

    expect(writeCalls(emulator)).toEqual([]);
    expect(accountSummary(emulator)).toMatchObject({ rules: 0, ipValues: 0 });
    await daemon.stop();
  });

  it('reports not-ready with the reason while the first cycles fail, and ready once one succeeds', async () => {
    const emulator = await startEmulatorForDaemon();
    // Six 500s exhaust the retries of the first listing: cycle 1 fails; the retry after failure succeeds.
    emulator.control.addFault({ route: LIST_HINTS, kind: 'status', status: 500, count: 6 });
    const policies = await plainPolicyDir(samplePolicies());
    // The retry waits 300 ms (backoff), far longer than the look at /readyz right after the failure takes.
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies, backoff: { baseMs: 300, maxMs: 300 } });
    const failed = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(failed.result).toBe('failed');
    const notReady = await daemon.get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.json().reason).toMatch(/last cycle failed/);
    // The API failed, not the policies: they were read and are valid.
    expect((await daemon.metrics()).value('rampart_policy_valid')).toBe(1);
    const retried = await daemon.waitForCycle(() => true, 'the retry', { after: 1, timeoutMs: 5000 });
    expect(retried).toMatchObject({ result: 'success', reasons: ['retry after failure'] });
    await eventually(async () => (await daemon.get('/readyz')).status === 200, '/readyz 200');
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_reconcile_total', { result: 'failed' })).toBe(1);
    expect(metrics.value('rampart_reconcile_total', { result: 'success' })).toBe(1);
    await daemon.stop();
  });
});
