/**
 * The emulator in a process of its own, so that a benchmark's time, CPU and
 * memory are Rampart's alone (the server's work happens elsewhere, as with the
 * real service). Run directly, this module serves; `spawnEmulator` starts it
 * and drives it over the admin API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CallRecord, EmulatorConfig, HintSeed, IpObjectSeed } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { scaleApplicationSeeds } from './scale.js';

export const BENCH_TOKEN = 'bench-token-0123456789abcdef';

export interface BenchEmulator {
  readonly url: string;
  readonly pid: number;
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  seedHints(seeds: readonly HintSeed[]): Promise<void>;
  seedIpObjects(seeds: readonly IpObjectSeed[]): Promise<void>;
  calls(): Promise<{ calls: CallRecord[]; counts: Record<string, number> }>;
  resetCalls(): Promise<void>;
  reset(): Promise<void>;
  setConfig(patch: Partial<EmulatorConfig>): Promise<void>;
  close(): Promise<void>;
}

const SEED_BATCH = 1_000;

export async function spawnEmulator(): Promise<BenchEmulator> {
  // BENCH_EMULATOR_PROFILE_DIR: write a CPU profile of the emulator process there (on close).
  const profile = process.env.BENCH_EMULATOR_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_EMULATOR_PROFILE_DIR] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_EMULATOR_TOKEN: BENCH_TOKEN },
    // stdin stays open while this process lives: the emulator exits when it closes.
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bench emulator exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  child.removeAllListeners('exit');

  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      // A fresh connection each time: a kept-alive one can be closed by the server's idle timeout
      // while this process is busy (loading 100k objects), and a POST on it then fails.
      headers: { 'x-serviceapi-token': BENCH_TOKEN, 'content-type': 'application/json', connection: 'close' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json()) as { status: number; body: T };
    if (envelope.status >= 400) throw new Error(`${method} ${path}: ${envelope.status} ${JSON.stringify(envelope.body).slice(0, 300)}`);
    return envelope.body;
  };
  const batched = async <T>(path: string, key: string, items: readonly T[]) => {
    for (let i = 0; i < items.length; i += SEED_BATCH) await admin('POST', path, { [key]: items.slice(i, i + SEED_BATCH) });
  };
  const seedApplications = () => admin('POST', '/__admin/seed/applications', { applications: scaleApplicationSeeds() });
  await seedApplications();
  return {
    url,
    pid: child.pid ?? 0,
    admin,
    seedHints: (seeds) => batched('/__admin/seed/hints', 'hints', seeds),
    seedIpObjects: (seeds) => batched('/__admin/seed/ip-rules', 'objects', seeds),
    calls: () => admin('GET', '/__admin/calls'),
    resetCalls: async () => {
      await admin('DELETE', '/__admin/calls');
    },
    reset: async () => {
      await admin('POST', '/__admin/reset');
      await seedApplications();
    },
    setConfig: async (patch) => {
      await admin('PUT', '/__admin/config', patch);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const emulator = await startEmulator({ token: process.env.BENCH_EMULATOR_TOKEN ?? BENCH_TOKEN, port: 0, maxBodyBytes: 64 * 2 ** 20 });
  process.stdout.write(`${JSON.stringify({ url: emulator.url })}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The benchmark that started us is gone (even killed): stop too.
  process.stdin.once('end', stop).once('close', stop).resume();
}
