/**
 * The daemon of a large account: `rampart run` (a child process, with the
 * Node.js options the Kubernetes manifests set) over 10k rules and 50k IP
 * values the emulator already holds, so every cycle is a full no-op read and
 * plan. Measured: the time to the first cycle, resident memory once idle after
 * it and after further resync cycles, and the peak (the kernel's high-water
 * mark, VmHWM), which is what a memory limit must cover.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadPolicies } from '../../src/policy/index.js';
import { freePort, procStatusMb, until } from './daemon-bench.js';
import { BENCH_TOKEN, type BenchEmulator } from './emulator-process.js';
import { describeRuntimeEnv, manifestRuntimeEnv, type RuntimeEnv } from './runtime-env.js';
import { hintSeed, ipSeed, writeScalePolicies, type ScaleSpec } from './scale.js';

export interface DaemonScaleFigures {
  readonly rules: number;
  readonly ipValues: number;
  /** The runtime variables the daemon ran with (the manifests', NODE_OPTIONS from BENCH_DAEMON_NODE_OPTIONS when set), as `describeRuntimeEnv` writes them. */
  readonly runtimeEnv: string;
  readonly firstCycleMs: number;
  readonly cycles: number;
  readonly rssAfterFirstCycleMb: number;
  readonly rssAfterCyclesMb: number;
  readonly peakRssMb: number;
  /** CPU time of the daemon process (every thread, GC included) per resync cycle, idle time between them included. */
  readonly cpuPerResyncMs: number;
}

export async function benchDaemonAtScale(
  emulator: BenchEmulator,
  options: { cli: string; policies: string; spec: ScaleSpec; cycles: number },
): Promise<DaemonScaleFigures> {
  await emulator.reset();
  await writeScalePolicies(options.policies, options.spec);
  const loaded = await loadPolicies(options.policies);
  if (!loaded.desired) throw new Error('generated policies are invalid');
  await emulator.seedHints(loaded.desired.rules.map((rule) => hintSeed(rule, 'rampart')));
  await emulator.seedIpObjects(loaded.desired.ipEntries.map((entry) => ipSeed(entry, 'rampart')));

  // BENCH_DAEMON_NODE_OPTIONS: other Node.js options to try instead of the manifests'.
  const manifest = await manifestRuntimeEnv();
  const runtime: RuntimeEnv = { ...manifest, NODE_OPTIONS: process.env.BENCH_DAEMON_NODE_OPTIONS ?? manifest.NODE_OPTIONS };
  const port = await freePort();
  const metrics = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const cyclesDone = async () => {
    const text = await metrics();
    return [...text.matchAll(/^rampart_reconcile_total\{result="([^"]+)"\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[2]), 0);
  };
  const started = Date.now();
  const daemon = spawn(process.execPath, [
    options.cli, 'run', '--policies', options.policies, '--listen', `127.0.0.1:${port}`, '--interval', '5s',
  ], {
    env: { ...process.env, ...runtime, RAMPART_API_URL: emulator.url, RAMPART_API_TOKEN: BENCH_TOKEN, RAMPART_LOG_FORMAT: 'json', RAMPART_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const pid = daemon.pid ?? 0;
  try {
    await until(async () => ((await cyclesDone()) >= 1 ? true : undefined), 120_000, 'the first cycle', 50);
    const firstCycleMs = Date.now() - started;
    await sleep(1_000);
    const rssAfterFirstCycleMb = await procStatusMb(pid, 'VmRSS');
    const cpuAfterFirstCycleMs = await processCpuMs(pid);
    await until(async () => ((await cyclesDone()) >= 1 + options.cycles ? true : undefined), 60_000 * options.cycles, 'the resync cycles', 100);
    await sleep(1_000);
    const text = await metrics();
    const failed = /^rampart_reconcile_total\{result="(?!no-op|skipped)[^"]+"\} [1-9]/m.exec(text);
    if (failed) throw new Error(`a daemon cycle did not end in no-op: ${failed[0]}`);
    return {
      rules: options.spec.rules,
      ipValues: options.spec.ipValues,
      runtimeEnv: describeRuntimeEnv(runtime),
      firstCycleMs,
      cycles: 1 + options.cycles,
      rssAfterFirstCycleMb,
      rssAfterCyclesMb: await procStatusMb(pid, 'VmRSS'),
      peakRssMb: await procStatusMb(pid, 'VmHWM'),
      cpuPerResyncMs: Math.round(((await processCpuMs(pid)) - cpuAfterFirstCycleMs) / options.cycles),
    };
  } finally {
    daemon.kill('SIGTERM');
    await exited;
  }
}

/** User and system CPU time of a process so far (`/proc/PID/stat`, in clock ticks of 10 ms). */
async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
