/**
 * `rampart apply` interrupted: killed outright (SIGKILL) mid-run, then rerun;
 * and asked to stop (SIGTERM), which lets the call in flight finish, starts no
 * new call and exits 1 with the report of what was not applied.
 * The emulator answers each call 100 ms late so the run is slow enough to hit
 * (a second at least between the third create and the last); where a signal
 * must land in the middle of one call, a proxy holds each write and sends the
 * signal as one arrives.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';
import { eventually } from '../../helpers/eventually.js';
import { startCli } from '../../helpers/cli.js';
import { cleanupDaemons, startSlowProxy, type ProxiedRequest } from '../../helpers/daemon.js';
import { CREATE_HINT, expectNoDuplicates, parseJson, SAMPLE_IP_VALUES, SAMPLE_RULES, startHarness, type Harness, WRITE_ROUTES } from './harness.js';

let harness: Harness;
let policies: PolicyDir;

beforeEach(async () => {
  harness = await startHarness({ latencyMs: 100 });
  policies = await samplePolicyDir();
});
afterEach(async () => {
  await cleanupDaemons();
  await harness.close();
  await policies.cleanup();
});

/** Until the emulator has seen `count` calls of `route`. */
const waitForCalls = (route: string, count: number) =>
  eventually(() => harness.emulator.control.count(route) >= count, `${count} calls of ${route}`, 15_000, 10);

const startedAt = (call: { time: number; durationMs: number }) => call.time - call.durationMs;
const isWrite = (method: string, pathname: string) => WRITE_ROUTES.includes(`${method} ${pathname}`);

describe('an apply killed mid-run', () => {
  it('SIGKILL, then a rerun converges without duplicates', async () => {
    const run = harness.start('apply', policies.dir, ['--concurrency', '1', '--settle-timeout', '5s']);
    await waitForCalls(CREATE_HINT, 3);
    // A fourth create is in flight: the emulator performs it though nobody is left to hear the answer.
    run.kill('SIGKILL');
    const killed = await run.result;
    expect(killed.signal).toBe('SIGKILL');
    await sleep(300);
    const before = harness.hints().length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(SAMPLE_RULES);

    harness.emulator.control.setConfig({ latencyMs: 0 });
    const rerun = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s', '--format', 'json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    // The rerun created only what the killed run had not: one create call per rule over both runs.
    expect(harness.emulator.control.count(CREATE_HINT)).toBe(SAMPLE_RULES);
    const clean = await harness.cli('plan', policies.dir, ['--detailed-exitcode']);
    expect(clean.code, clean.stdout).toBe(0);
  });
});

describe('an apply killed mid-run while the listings lag', () => {
  it('with --journal, a rerun right after the kill creates no duplicate', async () => {
    const journal = `${policies.dir}/../journal.jsonl`;
    harness.emulator.control.setConfig({ listingLagMs: 1_500 });
    const run = harness.start('apply', policies.dir, ['--concurrency', '1', '--settle-timeout', '5s', '--journal', journal]);
    await waitForCalls(CREATE_HINT, 3);
    run.kill('SIGKILL');
    expect((await run.result).signal).toBe('SIGKILL');
    await sleep(300); // the create in flight at the kill lands on the server, unlisted for 1.5 s

    harness.emulator.control.setConfig({ latencyMs: 0 });
    // No settle wait: what is asserted is the rerun's writes, not that its listings catch up.
    const rerun = await harness.cli('apply', policies.dir, ['--settle-timeout', '0', '--journal', journal]);
    expect(rerun.code, rerun.stderr).toBe(0);
    // Listed or not, nothing the killed run wrote (in flight included) was written twice.
    expect(harness.emulator.control.count(CREATE_HINT)).toBe(SAMPLE_RULES);
    // The emulator's state holds what its listings do not show yet: no need to wait out the lag.
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  }, 40_000);
});

describe('a rerun with --journal after a create was refused', () => {
  it('makes the refused create: a refusal is never remembered as a write', async () => {
    const journal = `${policies.dir}/../journal.jsonl`;
    harness.emulator.control.setConfig({ latencyMs: 0 });
    harness.emulator.control.addFault({ route: CREATE_HINT, kind: 'status', status: 400, count: 1 });
    const refused = await harness.cli('apply', policies.dir, ['--concurrency', '1', '--settle-timeout', '3s', '--journal', journal]);
    expect(refused.code).toBe(1);
    expect(harness.hints()).toHaveLength(SAMPLE_RULES - 1);

    const rerun = await harness.cli('apply', policies.dir, ['--settle-timeout', '3s', '--journal', journal]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});

describe('an apply asked to stop', () => {
  it('SIGTERM: the call in flight finishes, no new call starts, exit 1 with what was not applied', async () => {
    // The signal is sent as the third write reaches a proxy that holds each write 400 ms: it lands while that
    // write is in flight, and the client, idle until the answer, handles it first, however loaded the machine.
    // (Timed from the test, a starved client could start the next write after the signal but before handling it.)
    harness.emulator.control.setConfig({ latencyMs: 0 });
    const target: { pid?: number } = {};
    let signalledAt = 0;
    let inFlight: ProxiedRequest | undefined;
    let writesSeen = 0;
    const proxy = await startSlowProxy(harness.emulator.url, {
      delayMs: 400,
      slow: isWrite,
      onRequest: (request, pathname) => {
        if (!isWrite(request.method, pathname) || target.pid === undefined) return;
        writesSeen += 1;
        if (writesSeen !== 3) return;
        inFlight = request;
        signalledAt = Date.now();
        process.kill(target.pid, 'SIGTERM');
      },
    });
    const run = startCli(
      ['apply', '--api-url', proxy.url, '--policies', policies.dir, '--concurrency', '1', '--settle-timeout', '5s', '--format', 'json'],
    );
    target.pid = run.child.pid;
    const stopped = await run.result;
    expect(signalledAt, 'the signal was sent mid-apply').toBeGreaterThan(0);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/0 change\(s\) failed and \d+ were not attempted; run apply again to converge \[apply_failed\]/);

    const report = parseJson<{ summary: { applied: number; failed: number; skipped: number }; results: { status: string; detail?: string }[] }>(stopped);
    const writes = harness.emulator.control.calls().filter((c) => WRITE_ROUTES.includes(c.route));
    // Two writes were answered before the signal and the third, in flight, was forwarded, made and answered:
    // every write the emulator made is reported applied, the rest skipped.
    expect(inFlight!.answeredAt).toBeDefined();
    expect(writes).toHaveLength(3);
    expect(report.summary).toEqual({ applied: 3, already_done: 0, failed: 0, skipped: 22 - 3, rewritten: 0 });
    expect(report.results.filter((r) => r.status === 'skipped').every((r) => r.detail === 'stopped before this change')).toBe(true);
    expect(writes.every((c) => c.status === 200 && c.outcome === 'answered')).toBe(true);
    // No call of any kind (not even a listing) started after the signal.
    expect(proxy.requests.filter((r) => r.at > signalledAt)).toEqual([]);
    expect(harness.hints().length + harness.ipObjects().length).toBeGreaterThan(0);

    const rerun = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});

describe('an apply stopped while it waits for the listings', () => {
  it('SIGTERM during the settle wait: exits 0 at once, everything was applied', async () => {
    harness.emulator.control.setConfig({ latencyMs: 0, listingLagMs: 3000 });
    const run = harness.start('apply', policies.dir, ['--settle-timeout', '20s', '--format', 'json']);
    await waitForCalls('POST /v4/ip_rules', 9);
    // Polling the lagging listings: a listing started after the last write ended (not a sleep, which a loaded machine outlasts).
    const calls = () => harness.emulator.control.calls();
    const lastWriteEnded = Math.max(...calls().filter((c) => WRITE_ROUTES.includes(c.route)).map((c) => c.time));
    await eventually(() => calls().some((c) => !WRITE_ROUTES.includes(c.route) && startedAt(c) > lastWriteEnded), 'a settle listing after the writes', 15_000, 10);
    const signalledAt = Date.now();
    run.kill('SIGTERM');
    const stopped = await run.result;
    expect(Date.now() - signalledAt).toBeLessThan(3000);
    expect(stopped.code, stopped.stderr).toBe(0);
    const report = parseJson<{ summary: { applied: number; skipped: number }; settled: boolean }>(stopped);
    expect(report).toMatchObject({ summary: { applied: 22, skipped: 0 }, settled: false });
    const late = harness.emulator.control.calls().filter((c) => startedAt(c) > signalledAt + 50);
    expect(late).toEqual([]);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
  });
});
