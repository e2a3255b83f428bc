/**
 * Starting and stopping: SIGTERM in the middle of an apply (the call in flight
 * finishes, no new call starts, exit 0, a rerun converges without duplicates),
 * a second signal, `--once` exit codes, and the `npm start` way of running
 * (embedded emulator with a data file).
 * The daemons run as processes (signals, the exit code of a stopped daemon);
 * one-shot runs (the restart on a data file among them) and the usage error run
 * the CLI's main in this process (test/helpers/cli-in-process.ts), and the
 * refused token the daemon in process, as they need no process of their own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';
import { TEST_TOKEN } from '../../helpers/emulator.js';
import {
  accountSummary, cleanupDaemons, edit, freePort, onCleanup, plainPolicyDir, runArgs, SAMPLE_IP_VALUES,
  SAMPLE_RULES, samplePolicies, samplePolicy, startDaemon, startEmulatorForDaemon, startSlowProxy, tempDir, eventually,
  writeCalls, WRITE_ROUTES, type ProxiedRequest,
} from '../../helpers/daemon.js';

afterEach(cleanupDaemons);

const BULK = 30;
/** The samples plus 30 single addresses: 49 creates, one call each for the addresses. */
function bulkPolicies(): Record<string, string> {
  const ips = Array.from({ length: BULK }, (_, i) => `198.18.0.${i + 1}`).join(', ');
  return {
    ...samplePolicies(),
    'bulk.yaml': `version: 1\nclient: 10042\napplication: 9\nip_lists:\n  deny:\n    - ips: [${ips}]\n      reason: bulk\n`,
  };
}

const isWrite = (method: string, pathname: string) => WRITE_ROUTES.includes(`${method} ${pathname}`);

describe('rampart run: stopping and one-shot runs', () => {
  it('SIGTERM mid-apply: the call in flight finishes, no new call starts, exit 0; a rerun converges', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(bulkPolicies());
    let signalledAt = 0;
    let inFlight: ProxiedRequest | undefined;
    const target: { pid?: number } = {};
    let writes = 0;
    // Each write is held 400 ms on the way (with --concurrency 1 the apply takes seconds), so the
    // signal lands while the 3rd write is held, even on a loaded machine.
    const proxy = await startSlowProxy(emulator.url, {
      delayMs: 400,
      slow: isWrite,
      onRequest: (request, pathname) => {
        if (!isWrite(request.method, pathname)) return;
        writes += 1;
        if (writes === 3 && target.pid !== undefined) {
          inFlight = request;
          signalledAt = Date.now();
          process.kill(target.pid, 'SIGTERM');
        }
      },
    });
    const daemon = await startDaemon(runArgs(proxy.url, policies, ['--concurrency', '1', '--interval', '30s']));
    target.pid = daemon.cli.child.pid;
    const result = await daemon.cli.result;
    expect(signalledAt, 'the signal was sent mid-apply').toBeGreaterThan(0);
    expect(result.code).toBe(0);
    expect(result.logs.some((l) => l.module === 'signals' && /shutting down/.test(l.msg as string))).toBe(true);

    // The write in flight was forwarded and answered; nothing reached the proxy after the signal.
    expect(inFlight!.answeredAt).toBeDefined();
    const late = proxy.requests.filter((r) => r.at > signalledAt);
    expect(late, 'calls started after SIGTERM').toEqual([]);
    const stored = emulator.control.calls().filter((c) => WRITE_ROUTES.includes(c.route));
    expect(stored).toHaveLength(3);
    expect(stored.every((c) => c.status === 200)).toBe(true);
    const finished = result.logs.find((l) => l.msg === 'cycle finished');
    expect(finished?.result).not.toBe('success');
    const partial = accountSummary(emulator);
    expect(partial.rules + partial.ipValues).toBeGreaterThanOrEqual(3);

    // A rerun picks up where it stopped: each object once, none twice.
    const rerun = await runCliInProcess(['run', '--once', '--api-url', emulator.url, '--policies', policies, '--log-format', 'json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const total = SAMPLE_RULES + SAMPLE_IP_VALUES + BULK;
    expect(rerun.logs.find((l) => l.msg === 'cycle finished')).toMatchObject({
      result: 'success', changes: { create: total - partial.rules - partial.ipValues, delete: 0 },
    });
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES + BULK });
  });

  it('a second signal exits at once with a non-zero code', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(bulkPolicies());
    const target: { pid?: number } = {};
    let writes = 0;
    let signalledAt = 0;
    const proxy = await startSlowProxy(emulator.url, {
      delayMs: 3000,
      slow: isWrite,
      onRequest: (request, pathname) => {
        if (!isWrite(request.method, pathname) || target.pid === undefined) return;
        writes += 1;
        if (writes === 1) {
          signalledAt = Date.now();
          process.kill(target.pid, 'SIGTERM');
          setTimeout(() => process.kill(target.pid!, 'SIGTERM'), 100);
        }
      },
    });
    const daemon = await startDaemon(runArgs(proxy.url, policies, ['--concurrency', '1', '--interval', '30s']));
    target.pid = daemon.cli.child.pid;
    const result = await daemon.cli.result;
    const exitedAt = Date.now();
    expect(signalledAt).toBeGreaterThan(0);
    expect(result.code).toBe(130);
    // It did not wait for the write held for 3 s.
    expect(exitedAt - signalledAt).toBeLessThan(2000);
    expect(result.logs.some((l) => /second signal/.test(l.msg as string))).toBe(true);
  });

  it('--once exits 0 after a successful cycle, 1 on invalid policies or an unreachable API', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(samplePolicies());
    const once = (dir: string, apiUrl: string) => runCliInProcess(['run', '--once', '--api-url', apiUrl, '--policies', dir, '--log-format', 'json']);

    const ok = await once(policies, emulator.url);
    expect(ok.code, ok.stderr).toBe(0);
    expect(accountSummary(emulator)).toMatchObject({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    expect(ok.logs.find((l) => l.msg === 'cycle finished')).toMatchObject({ result: 'success', reasons: ['once'] });
    expect(ok.stderr).not.toMatch(/daemon endpoints listening/);

    const badShop = edit(samplePolicy('shop.yaml'), 'ips: [192.0.2.10]', 'ips: [192.0.2.300]');
    const invalidDir = await plainPolicyDir({ ...samplePolicies(), 'shop.yaml': badShop });
    const invalid = await once(invalidDir, emulator.url);
    expect(invalid.code).toBe(1);
    const error = invalid.logs.find((l) => l.level === 50 && typeof l.file === 'string');
    expect(error).toMatchObject({ file: expect.stringMatching(/shop\.yaml$/) });
    expect(badShop.split('\n')[(error!.line as number) - 1]).toContain('192.0.2.300');
    expect(invalid.logs.find((l) => l.msg === 'cycle finished')).toMatchObject({ result: 'invalid' });

    const closed = await freePort();
    const started = Date.now();
    const unreachable = await once(policies, `http://127.0.0.1:${closed}`);
    expect(unreachable.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    const failure = unreachable.logs.find((l) => l.msg === 'cycle finished');
    expect(failure).toMatchObject({ result: 'failed' });
    expect(JSON.stringify(failure!.err)).toMatch(/ECONNREFUSED|connect|unreachable|network/i);
    for (const run of [ok, invalid, unreachable]) expect(run.stdout + run.stderr).not.toContain(TEST_TOKEN);
  });

  it('a taken --listen address is a clear usage error; a wrong token fails cycles with a clear reason, never printed', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(samplePolicies());
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise((resolve) => blocker.close(resolve)));
    const taken = (blocker.address() as AddressInfo).port;
    const busy = await runCliInProcess(['run', '--api-url', emulator.url, '--policies', policies, '--listen', `127.0.0.1:${taken}`, '--log-format', 'json']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`cannot listen on 127.0.0.1:${taken}`);
    expect(busy.stderr).not.toMatch(/internal error/);
    expect(writeCalls(emulator)).toEqual([]);

    // The daemon in process: what a refused token does to cycles, /readyz and the logs needs no process of its own
    // (the token from the environment and the exit code of a stopped daemon are the spawned tests' above and below).
    const wrongToken = 'wrong-token-must-not-leak-42';
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies, token: wrongToken });
    const failed = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(failed.result).toBe('failed');
    const notReady = await daemon.get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.json().reason).toMatch(/the API refused the token while reading client 10042 \(declared at .*account-wide\.yaml:\d+:\d+/);
    await daemon.stop();
    expect(JSON.stringify(daemon.logs()) + notReady.text).not.toContain(wrongToken);
    expect(writeCalls(emulator)).toEqual([]);
  });

  it('npm start style: embedded emulator with a data file, ready, then quiet resyncs; state survives a restart', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'policies'));
    const policies = await plainPolicyDir(samplePolicies());
    const dataFile = path.join(root, 'emu.json');
    const port = await freePort();
    const args = ['run', '--emulator', '--emulator-data', dataFile, '--policies', policies, '--listen', `127.0.0.1:${port}`, '--interval', '1s'];
    const env = { RAMPART_API_TOKEN: undefined };

    const daemon = await startDaemon(args, { env });
    expect(daemon.url).toBe(`http://127.0.0.1:${port}`);
    await eventually(async () => (await daemon.get('/readyz')).status === 200, 'ready', 8000);
    // The log line may reach this process after the HTTP answer: wait for it.
    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first).toMatchObject({ result: 'success', changes: { create: SAMPLE_RULES + SAMPLE_IP_VALUES, delete: 0 } });
    const second = await daemon.waitForCycle(() => true, 'the second cycle', { after: 1 });
    expect(second).toMatchObject({ result: 'no-op', reasons: ['resync'] });
    const metrics = await daemon.metrics();
    expect(metrics.sum('rampart_changes_applied_total')).toBeGreaterThan(0);
    const writeCallsSeen = (m: typeof metrics) => m.sum('rampart_api_calls_total', { route: 'POST /v1/objects/hint/create' }) + m.sum('rampart_api_calls_total', { route: 'POST /v4/ip_rules' });
    const writesAfterFirst = writeCallsSeen(metrics);
    await daemon.waitForCycle(() => true, 'a third cycle', { after: 2 });
    expect(writeCallsSeen(await daemon.metrics())).toBe(writesAfterFirst);
    expect((await daemon.stop()).code).toBe(0);

    expect(existsSync(dataFile)).toBe(true);
    const saved = readFileSync(dataFile, 'utf8');
    expect(saved).toContain('managed-by:rampart');

    // A restart on the same data file finds everything in place: one cycle is enough to see it, in this process.
    const again = await runCliInProcess([...args, '--once'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.logs.find((l) => l.msg === 'cycle finished')).toMatchObject({ result: 'no-op' });
  });
});
