/**
 * The first plan of a large account: the policies of `spec` against an empty
 * account, so every declaration is a create, rendered as `rampart plan` prints
 * it (each change with the file:line that declares it). The no-op plans never
 * read a position; this plan reads them all. A fresh process, as `rampart
 * plan` is; run directly, this module is that process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiClient } from '../../src/api/client.js';
import { ServiceApi } from '../../src/api/service.js';
import { encodePlanBody } from '../../src/plan/codec.js';
import { renderText } from '../../src/plan/render/text.js';
import { loadDesired, prepare } from '../../src/reconcile/prepare.js';
import { runSettings } from '../../src/reconcile/settings.js';
import { BENCH_TOKEN, type BenchEmulator } from './emulator-process.js';
import { writeScalePolicies, type ScaleSpec } from './scale.js';

export interface FirstPlanFigures {
  readonly rules: number;
  readonly ipValues: number;
  readonly changes: number;
  /** Load, read and plan (`prepare`), then the text plan rendered: the whole of a cold `rampart plan` but Node's start. */
  readonly totalMs: number;
  readonly loadMs: number;
  readonly readMs: number;
  readonly planMs: number;
  /** The text plan, positions included. */
  readonly renderMs: number;
  readonly maxRssMb: number;
}

export async function benchFirstPlan(emulator: BenchEmulator, spec: ScaleSpec, policies: string): Promise<FirstPlanFigures> {
  await emulator.reset();
  await writeScalePolicies(policies, spec);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), policies], {
      env: { ...process.env, BENCH_API_URL: emulator.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the first-plan process exited with ${code}`));
      else resolve({ rules: spec.rules, ipValues: spec.ipValues, ...(JSON.parse(out) as Omit<FirstPlanFigures, 'rules' | 'ipValues'>) });
    });
  });
}

async function child(policies: string): Promise<void> {
  const http = new ApiClient({ baseUrl: process.env.BENCH_API_URL ?? '', credentials: { token: BENCH_TOKEN } });
  const started = performance.now();
  const policy = await loadDesired({ policies });
  const loadMs = Math.round(performance.now() - started);
  const prepared = await prepare({ policies, policy, api: new ServiceApi(http), settings: runSettings({ owner: 'rampart' }) });
  const rendering = performance.now();
  const text = renderText(encodePlanBody(prepared.plan));
  const done = performance.now();
  await http.close();
  if (!text.includes('to create')) throw new Error('the first plan rendered no creates');
  const { readMs, planMs } = prepared.timings;
  process.stdout.write(JSON.stringify({
    changes: prepared.plan.changes.length,
    totalMs: Math.round(done - started), loadMs, readMs, planMs,
    renderMs: Math.round(done - rendering),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await child(process.argv[2] ?? '');
}
