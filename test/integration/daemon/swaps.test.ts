/**
 * Policies delivered the way clusters deliver them: git-sync's atomic link swap
 * (old worktree deleted right after) and a ConfigMap volume's `..data` swap.
 * The resync interval is long (30 s), so every cycle after the first is proof
 * the watcher saw the swap. Also: an invalid commit changes nothing, a fixed
 * one is applied. The daemon runs in this process (test/helpers/daemon-in-process.ts:
 * the same watcher, loop, cycle and endpoints as `rampart run`); what only a
 * process shows (signals, exit codes) is in lifecycle.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  accountSummary, cleanupDaemons, configMapTree, edit, gitSyncTree, liveHints, liveIpObjects, SAMPLE_IP_VALUES,
  SAMPLE_RULES, samplePolicies, samplePolicy, startEmulatorForDaemon, eventually, writeCalls,
} from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';

afterEach(cleanupDaemons);

const NEW_IP = '198.51.100.77/32';
const withNewIp = (): Record<string, string> => ({
  ...samplePolicies(),
  'shop.yaml': edit(samplePolicy('shop.yaml'), '198.51.100.7,', '198.51.100.7, 198.51.100.77,'),
});
const hasIp = (subnet: string) => (objects: { subnet: string | null }[]) => objects.some((o) => o.subnet === subnet);

describe('rampart run: atomic policy swaps', () => {
  it('applies git-sync commits (relative link renamed over repo, old worktree deleted), twice', async () => {
    const emulator = await startEmulatorForDaemon();
    const git = await gitSyncTree(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: git.policies, intervalMs: 30_000 });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    expect(hasIp(NEW_IP)(liveIpObjects(emulator))).toBe(false);

    // Commit 2 adds an address to the shop's deny list.
    const started = Date.now();
    await git.commit(withNewIp());
    await eventually(() => hasIp(NEW_IP)(liveIpObjects(emulator)), 'the new address in the account', 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    const second = await daemon.waitForCycle(() => true, 'the cycle after commit 2', { after: 1 });
    expect(second).toMatchObject({ result: 'success', changes: { create: 1, delete: 0 } });
    expect((second.reasons as string[]).join(' ')).not.toMatch(/resync/);

    // Commit 3 changes a rule's regex: an update in place, the address stays.
    const hintsBefore = liveHints(emulator).length;
    await git.commit({ ...withNewIp(), 'shop.yaml': edit(withNewIp()['shop.yaml']!, '".*curltool.*"', '".*curltool2.*"') });
    await eventually(() => liveHints(emulator).some((h) => h.regex === '.*curltool2.*'), 'the edited rule', 5000);
    const third = await daemon.waitForCycle((c) => c.result === 'success', 'the cycle after commit 3', { after: 2 });
    // Counted in the plan's vocabulary: one object updated, nothing created or deleted.
    expect(third.changes).toEqual({ create: 0, update: 1, replace: 0, delete: 0, adopt: 0 });
    await eventually(() => !liveHints(emulator).some((h) => h.regex === '.*curltool.*'), 'the old rule gone', 3000);
    expect(liveHints(emulator)).toHaveLength(hintsBefore);
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + 1 });
    await daemon.stop();
  });

  it('applies a ConfigMap update (..data swapped to a new timestamped directory)', async () => {
    const emulator = await startEmulatorForDaemon();
    const configMap = await configMapTree(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: configMap.dir, intervalMs: 30_000 });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });

    await configMap.update(withNewIp());
    await eventually(() => hasIp(NEW_IP)(liveIpObjects(emulator)), 'the new address in the account', 5000);
    const second = await daemon.waitForCycle(() => true, 'the cycle after the update', { after: 1 });
    expect(second).toMatchObject({ result: 'success', changes: { create: 1, delete: 0 } });

    // A second update that removes the address again.
    await configMap.update(samplePolicies());
    await eventually(() => !hasIp(NEW_IP)(liveIpObjects(emulator)), 'the address removed', 5000);
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    await daemon.stop();
  });

  it('waits for a git-sync clone that is not there yet: not ready, nothing deleted; then applies the first commit', async () => {
    const emulator = await startEmulatorForDaemon();
    const git = await gitSyncTree(undefined);
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: git.policies, intervalMs: 30_000 });
    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first.result).toBe('invalid');
    expect(JSON.stringify(first.err)).toMatch(/does not exist/);
    const notReady = await daemon.get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.json().reason).toMatch(/invalid/);
    expect((await daemon.metrics()).value('rampart_policy_valid')).toBe(0);
    expect(emulator.control.calls()).toEqual([]);

    await git.commit(samplePolicies());
    await daemon.waitForCycle((c) => c.result === 'success', 'the first commit applied', { after: 1, timeoutMs: 15_000 });
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    expect((await daemon.get('/readyz')).status).toBe(200);
    expect((await daemon.metrics()).value('rampart_policy_valid')).toBe(1);
    await daemon.stop();
  });

  it('an invalid commit writes nothing and reports file:line; the fixed commit is applied', async () => {
    const emulator = await startEmulatorForDaemon();
    const git = await gitSyncTree(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: git.policies, intervalMs: 30_000 });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    expect((await daemon.metrics()).value('rampart_policy_valid')).toBe(1);
    const writesBefore = writeCalls(emulator).length;

    // The bad commit adds a valid new address AND an invalid CIDR in the same file: nothing of it may land.
    const broken = edit(withNewIp()['shop.yaml']!, '192.0.2.10]', '192.0.2.10, 10.0.0.300]');
    await git.commit({ ...samplePolicies(), 'shop.yaml': broken });
    const invalid = await daemon.waitForCycle(() => true, 'the cycle after the bad commit', { after: 1 });
    expect(invalid.result).toBe('invalid');
    const error = daemon.logs().find((l) => l.level === 50 && typeof l.file === 'string' && (l.file as string).endsWith('shop.yaml'));
    expect(error, 'an error line naming the file').toBeDefined();
    expect(error!.line).toBeTypeOf('number');
    expect(error!.cycle).toBe(invalid.cycle);
    const lines = broken.split('\n');
    expect(lines[(error!.line as number) - 1]).toContain('10.0.0.300');

    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_policy_valid')).toBe(0);
    expect(metrics.value('rampart_reconcile_total', { result: 'invalid' })).toBe(1);
    // Readiness stays: the daemon did succeed once and keeps the last good policies applied.
    // Invalid policies are alerted on through rampart_policy_valid, not by pulling the pod.
    expect((await daemon.get('/readyz')).status).toBe(200);
    expect(writeCalls(emulator)).toHaveLength(writesBefore);
    expect(hasIp(NEW_IP)(liveIpObjects(emulator))).toBe(false);

    // The fix.
    await git.commit(withNewIp());
    await eventually(() => hasIp(NEW_IP)(liveIpObjects(emulator)), 'the fixed commit applied', 5000);
    const fixed = await daemon.waitForCycle((c) => c.result === 'success', 'the cycle after the fix', { after: 2 });
    expect(fixed.changes).toEqual({ create: 1, update: 0, replace: 0, delete: 0, adopt: 0 });
    expect((await daemon.metrics()).value('rampart_policy_valid')).toBe(1);
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + 1 });
    await daemon.stop();
  });
});
