/**
 * The daemon as users run it (`rampart run`, a child process) against the
 * emulator: its resident memory once idle, and the time from a policy edit to
 * the first API call it causes (and to the first write), read from the
 * emulator's call log.
 */
import { spawn } from 'node:child_process';
import { readFile, appendFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_TOKEN, type BenchEmulator } from './emulator-process.js';
import { describeRuntimeEnv, manifestRuntimeEnv, NO_RUNTIME_ENV, type RuntimeEnv } from './runtime-env.js';
import { writeScalePolicies } from './scale.js';

export interface DaemonFigures {
  readonly rules: number;
  readonly startupMs: number;
  readonly idleRssMb: number;
  /** The same, under the runtime variables the Kubernetes manifests set (what a pod holds). */
  readonly idleRssManifestMb: number;
  /**
   * The floor of an idle daemon: Node.js alone serving HTTP, idle as long,
   * under the same variables. What any daemon written for Node holds.
   */
  readonly idleFloorMb: number;
  /** Those variables, as `describeRuntimeEnv` writes them. */
  readonly manifestEnv: string;
  /** Per edit: ms from the file write to the first API call it caused. */
  readonly editToFirstCallMs: number[];
  readonly editToFirstWriteMs: number[];
  readonly rssAfterEditsMb: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A memory figure of a process from /proc (VmRSS: resident now; VmHWM: the peak), in MB. */
export async function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

const rssMb = (pid: number): Promise<number> => procStatusMb(pid, 'VmRSS');

export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string, everyMs = 5): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

interface RunningDaemon {
  readonly pid: number;
  /** Ms from spawn to ready. */
  readonly startupMs: number;
  stop(): Promise<void>;
}

/** `rampart run` over `policies` with the runtime variables `runtime`, ready (its first cycle done). */
async function startDaemon(emulator: BenchEmulator, cli: string, policies: string, runtime: RuntimeEnv): Promise<RunningDaemon> {
  const port = await freePort();
  const started = Date.now();
  const daemon = spawn(process.execPath, [cli, 'run', '--policies', policies, '--listen', `127.0.0.1:${port}`, '--interval', '1h'], {
    env: { ...process.env, ...runtime, RAMPART_API_URL: emulator.url, RAMPART_API_TOKEN: BENCH_TOKEN, RAMPART_LOG_FORMAT: 'json', RAMPART_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const stop = async () => {
    daemon.kill('SIGTERM');
    await exited;
  };
  try {
    await until(async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : undefined), 60_000, 'the daemon to be ready', 50);
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: daemon.pid ?? 0, startupMs: Date.now() - started, stop };
}

/** How long a daemon is left alone before its resident memory counts as idle. */
const IDLE_AFTER_MS = 2_000;

/** Resident memory once idle: 2 s after the first cycle, as the loop has given the cycle's garbage back. */
async function idleRss(daemon: RunningDaemon): Promise<number> {
  await sleep(IDLE_AFTER_MS);
  return rssMb(daemon.pid);
}

/** An HTTP server in Node.js and nothing else, answering one request, then idle as long as a daemon: the idle floor. */
async function idleFloorRss(runtime: RuntimeEnv): Promise<number> {
  const port = await freePort();
  const server = spawn(process.execPath, ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`], {
    env: { ...process.env, ...runtime }, stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    await until(async () => ((await fetch(`http://127.0.0.1:${port}/`)).ok ? true : undefined), 10_000, 'the idle floor to listen', 20);
    await sleep(IDLE_AFTER_MS);
    return await rssMb(server.pid ?? 0);
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

export async function benchDaemon(
  emulator: BenchEmulator,
  options: { cli: string; policies: string; rules: number; edits: number },
): Promise<DaemonFigures> {
  await emulator.reset();
  await writeScalePolicies(options.policies, { rules: options.rules, ipValues: 0, files: 10 });
  const manifest = await manifestRuntimeEnv();
  const underManifest = await startDaemon(emulator, options.cli, options.policies, manifest);
  const idleRssManifestMb = await idleRss(underManifest).finally(() => underManifest.stop());
  const idleFloorMb = await idleFloorRss(manifest);
  const daemon = await startDaemon(emulator, options.cli, options.policies, NO_RUNTIME_ENV);
  try {
    const { startupMs } = daemon;
    const idleRssMb = await idleRss(daemon);

    const firstCall: number[] = [];
    const firstWrite: number[] = [];
    const file = join(options.policies, 'team-0', 'app-1.yaml');
    for (let i = 0; i < options.edits; i++) {
      await emulator.resetCalls();
      const edited = Date.now();
      await appendFile(file, `  - name: edit-${i}\n    type: mode\n    mode: block\n    when:\n      - { point: [path, 0], equal: "edit${i}" }\n`);
      const calls = await until(async () => {
        const { calls: log } = await emulator.calls();
        return log.some((c) => c.route === 'POST /v1/objects/hint/create') ? log : undefined;
      }, 30_000, 'the daemon to apply the edit');
      const start = (c: { time: number; durationMs: number }) => c.time - c.durationMs;
      firstCall.push(Math.min(...calls.map(start)) - edited);
      firstWrite.push(Math.min(...calls.filter((c) => c.route === 'POST /v1/objects/hint/create').map(start)) - edited);
      await sleep(1_500);
    }
    return {
      rules: options.rules, startupMs, idleRssMb, idleRssManifestMb, idleFloorMb, manifestEnv: describeRuntimeEnv(manifest),
      editToFirstCallMs: firstCall, editToFirstWriteMs: firstWrite, rssAfterEditsMb: await rssMb(daemon.pid),
    };
  } finally {
    await daemon.stop();
  }
}
