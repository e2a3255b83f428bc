/**
 * The daemon against an account that does not hold still: drift made in the
 * console, listings that lag writes, API faults, and a commit that would delete
 * most of what Rampart owns. In process (test/helpers/daemon-in-process.ts):
 * the real cycle, loop, watcher and endpoints over HTTP; resyncs are asked for
 * and the lag window passes on the emulator's clock, so nothing waits on time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  accountSummary, cleanupDaemons, CLIENT, CREATE_HINT, CREATE_IP, DELETE_HINT, DELETE_IP, gitSyncTree, hintKey, isOwned,
  LIST_HINTS, LIST_IP, liveHints, liveIpObjects, plainPolicyDir, SAMPLE_IP_VALUES, SAMPLE_RULES, samplePolicies,
  samplePolicy, startEmulatorForDaemon, eventually, writeCalls,
} from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';

afterEach(cleanupDaemons);

const CONSOLE_RULE = {
  clientid: CLIENT, type: 'vpatch', point: ['header', 'X-CONSOLE'], attack_type: 'xss', comment: 'made in the console',
  action: [{ point: ['instance'], type: 'equal', value: '7' }],
};

describe('the daemon: drift, lag, faults, safety', () => {
  it('re-creates an owned rule and IP object deleted behind its back; never touches console objects', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'no-op', 'a quiet resync after the initial apply', { after: 1 });

    // The console adds a rule and an address; someone deletes one owned rule and one owned IP object.
    const foreignRule = emulator.control.seedHint(CONSOLE_RULE);
    const foreignIp = emulator.control.seedIpObject({ clientid: CLIENT, list: 'black', values: ['192.0.2.200/32'], pools: [7], reason: 'console block' });
    const victim = liveHints(emulator).find((h) => h.type === 'regex' && isOwned(h.comment))!;
    const victimIp = liveIpObjects(emulator).find((o) => o.rule_type === 'country' && isOwned(o.reason))!;
    expect((await emulator.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [CLIENT], id: victim.id } })).body).toHaveLength(1);
    expect((await emulator.call('DELETE', '/v4/ip_rules', { filter: { clientid: CLIENT, id: [victimIp.id] } })).status).toBe(200);
    const cyclesBefore = daemon.cycles().length;
    daemon.resync();

    const recreated = await eventually(
      () => liveHints(emulator).find((h) => h.id !== victim.id && hintKey(h) === hintKey(victim)),
      'the deleted rule re-created', 5000,
    );
    expect(recreated.id).toBeGreaterThan(victim.id);
    await eventually(() => liveIpObjects(emulator).some((o) => o.rule_type === 'country' && o.source_values?.includes('KP')), 'KP re-created', 5000);
    const correcting = await daemon.waitForCycle((c) => c.result === 'success', 'the correcting cycle', { after: cyclesBefore });
    expect(correcting.reasons).toContain('resync');
    expect(correcting.changes).toEqual({ create: 2, update: 0, replace: 0, delete: 0, adopt: 0 });

    // A few more resyncs: nothing else happens, the console's objects stay.
    const cyclesAfter = daemon.cycles().length;
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'no-op', 'a quiet resync', { after: cyclesAfter });
    expect(liveHints(emulator).map((h) => h.id)).toContain(foreignRule.id);
    expect(liveIpObjects(emulator).map((o) => o.id)).toContain(foreignIp.id);
    // The only deletes are the two made by hand above.
    expect(emulator.control.count(DELETE_HINT)).toBe(1);
    expect(emulator.control.count(DELETE_IP)).toBe(1);
    expect(accountSummary(emulator)).toEqual({
      rules: SAMPLE_RULES + 1, ipValues: SAMPLE_IP_VALUES + 1, ownedRules: SAMPLE_RULES, ownedIpValues: SAMPLE_IP_VALUES,
    });
    await daemon.stop();
  });

  it('with listings lagging 2 s and resyncs inside and past the lag, creates each object once and deletes once', async () => {
    const emulator = await startEmulatorForDaemon({ listingLagMs: 2000 });
    // An owned rule the policies no longer declare: deleted once, though listed for 2 s after.
    const stale = emulator.control.seedHint({ ...CONSOLE_RULE, comment: 'old [managed-by:rampart]' });
    const policies = await plainPolicyDir(samplePolicies());
    // --settle-timeout 0: the apply does not wait for the listings, so the next cycles plan from lagging ones.
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies, settleTimeoutMs: 0 });
    const first = await daemon.waitForCycle(() => true, 'the initial apply');
    expect(first).toMatchObject({ result: 'success', changes: { create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 1 } });
    const writesAfterFirst = writeCalls(emulator).length;

    // Three resyncs: two inside the lag window (the listings do not show the writes yet), one past it.
    const listedRules = async () => ((await emulator.call('POST', '/v1/objects/hint', { filter: { clientid: [CLIENT] }, limit: 1000, offset: 0 })).body as unknown[]).length;
    expect(await listedRules()).toBe(1);
    for (let n = 1; n <= 3; n += 1) {
      if (n === 3) {
        emulator.control.advanceClock(2);
        expect(await listedRules()).toBe(SAMPLE_RULES);
      }
      daemon.resync();
      await daemon.waitForCycle(() => true, `resync ${n}`, { after: n });
    }
    const quiet = daemon.cycles().at(-1)!;
    const later = daemon.cycles().slice(1);
    expect(later.length).toBeGreaterThanOrEqual(3);
    expect(later.map((c) => c.result).filter((r) => r !== 'no-op')).toEqual([]);
    expect(quiet.result).toBe('no-op');
    expect(writeCalls(emulator)).toHaveLength(writesAfterFirst);
    expect(emulator.control.count(CREATE_HINT)).toBe(SAMPLE_RULES);
    expect(emulator.control.count(DELETE_HINT)).toBe(1);
    expect(emulator.control.count(DELETE_IP)).toBe(0);
    expect(liveHints(emulator).map((h) => h.id)).not.toContain(stale.id);
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    await daemon.stop();
  });

  it('rides out 423/429/503 on creates and 500s on listings; a failed listing writes nothing', async () => {
    const emulator = await startEmulatorForDaemon();
    // 300 console objects: the deny list takes two pages.
    for (let i = 0; i < 300; i += 1) {
      emulator.control.seedIpObject({ clientid: CLIENT, list: 'black', values: [`10.1.${Math.floor(i / 250)}.${i % 250}/32`], reason: 'console' });
    }
    emulator.control.addFault({ route: CREATE_HINT, kind: 'status', status: 423, count: 2 });
    // Retry-After: 0 (at once): that a longer one is waited out is test/integration/apply/faults.test.ts's.
    emulator.control.addFault({ route: CREATE_HINT, kind: 'status', status: 429, retryAfterSeconds: 0, count: 1 });
    emulator.control.addFault({ route: CREATE_HINT, kind: 'status', status: 503, count: 2 });
    emulator.control.addFault({ route: CREATE_IP, kind: 'status', status: 503, count: 2 });
    const policies = await plainPolicyDir(samplePolicies());
    // Each 503 on a create is checked against the listing (up to the settle timeout, short: the emulator lists at
    // once) before the create is repeated.
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies, concurrency: 2, settleTimeoutMs: 300 });
    const first = await daemon.waitForCycle(() => true, 'the initial apply', { timeoutMs: 12_000 });
    expect(first.result).toBe('success');
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + 300 });
    const refused = emulator.control.calls().filter((c) => c.route === CREATE_HINT && c.status !== 200).map((c) => c.status);
    expect(refused.sort()).toEqual([423, 423, 429, 503, 503]);
    // The retry policy repeats the 423s and the 429; a create that got a 503 may have landed, so the apply
    // looks for it in the listing and makes it again itself (not a policy retry).
    expect((await daemon.metrics()).sum('rampart_api_retries_total')).toBe(3);
    expect(emulator.control.count(CREATE_HINT)).toBe(SAMPLE_RULES + 5);

    // Now the listings fail, more often than one cycle retries: cycles fail, back off, then recover.
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'no-op', 'a quiet resync', { after: 1 });
    const writesBefore = writeCalls(emulator).length;
    const cyclesBefore = daemon.cycles().length;
    emulator.control.addFault({ route: LIST_IP, kind: 'status', status: 500, count: 14 });
    emulator.control.addFault({ route: LIST_HINTS, kind: 'status', status: 500, count: 7 });
    daemon.resync();
    const failed = await daemon.waitForCycle((c) => c.result === 'failed', 'a failed cycle', { after: cyclesBefore, timeoutMs: 8000 });
    expect(failed.err).toBeDefined();
    const recovered = await daemon.waitForCycle((c) => c.result === 'no-op', 'recovery', { after: cyclesBefore, timeoutMs: 15_000 });
    // Every cycle after a failure is a backoff retry, until one gets through.
    const since = daemon.cycles().slice(cyclesBefore);
    const firstFailure = since.findIndex((c) => c.result === 'failed');
    for (const cycle of since.slice(firstFailure + 1)) expect(cycle.reasons).toContain('retry after failure');
    expect(recovered.reasons).toContain('retry after failure');
    expect(emulator.control.faults()).toEqual([]);
    expect(writeCalls(emulator)).toHaveLength(writesBefore);
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + 300 });
    expect((await daemon.metrics()).value('rampart_reconcile_total', { result: 'failed' })).toBeGreaterThanOrEqual(1);
    await daemon.stop();
  });

  it('refuses a commit that deletes most owned objects (unsafe) and deletes nothing; an empty commit deletes nothing', async () => {
    const emulator = await startEmulatorForDaemon();
    const git = await gitSyncTree(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: git.policies });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    const owned = SAMPLE_RULES + SAMPLE_IP_VALUES;
    expect(accountSummary(emulator)).toMatchObject({ ownedRules: SAMPLE_RULES, ownedIpValues: SAMPLE_IP_VALUES });

    // Only the account-wide file is left: 15 of 19 owned objects would go.
    await git.commit({ 'account-wide.yaml': samplePolicy('account-wide.yaml') });
    const unsafe = await daemon.waitForCycle(() => true, 'the cycle after the commit', { after: 1 });
    expect(unsafe.result).toBe('unsafe');
    expect(unsafe.changes).toEqual({ create: 0, update: 0, replace: 0, delete: owned - 4, adopt: 0 });
    expect(JSON.stringify(unsafe.err)).toMatch(/force/i);
    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_reconcile_total', { result: 'unsafe' })).toBe(1);
    expect(metrics.value('rampart_plan_pending_changes', { action: 'delete' })).toBe(owned - 4);
    const plan = (await daemon.get('/plan')).json();
    expect(plan.summary.delete).toBe(owned - 4);
    expect(emulator.control.count(DELETE_HINT) + emulator.control.count(DELETE_IP)).toBe(0);

    // An empty worktree is not "delete everything" either.
    await git.commit({});
    await daemon.waitForCycle(() => true, 'the cycle after the empty commit', { after: 2 });
    expect(emulator.control.count(DELETE_HINT) + emulator.control.count(DELETE_IP)).toBe(0);
    expect(accountSummary(emulator)).toMatchObject({ ownedRules: SAMPLE_RULES, ownedIpValues: SAMPLE_IP_VALUES });

    // Back to the full policies: nothing to do, healthy again.
    await git.commit(samplePolicies());
    const back = await daemon.waitForCycle(() => true, 'the cycle after the revert', { after: 3 });
    expect(['no-op', 'skipped']).toContain(back.result);
    expect((await daemon.get('/readyz')).status).toBe(200);
    expect(emulator.control.count(DELETE_HINT) + emulator.control.count(DELETE_IP)).toBe(0);
    await daemon.stop();
  });
});
