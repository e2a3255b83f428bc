/**
 * Benchmark (not a test): `plan --impact` over 100k hits and 1,000 changes,
 * against its floor measured in the same run. Three fresh processes read the
 * emulator in another one:
 *
 *   - `plan`: load → read → plan, as `rampart plan` without `--impact`;
 *   - `impact`: the same, then the impact (read the hits, index, evaluate);
 *   - `floor`: the same hits listing pages fetched and parsed through the same
 *     client, in the same time slices, and nothing else.
 *
 * Goal: the impact's own time within 1.5× the floor, and at most 50 MB of
 * peak memory over the plan without it (judged as a pipeline runs it, with no
 * runtime settings; the manifests' settings are measured beside it).
 * `npm run bench -- --impact` runs only this.
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiClient } from '../src/api/client.js';
import { HIT_PAGE_LIMIT, ServiceApi } from '../src/api/service.js';
import type { HitSeed } from '../src/emulator/hits/records.js';
import { HIT_OFFSET_CAP, standardHitFilter } from '../src/hits/read.js';
import { modelAgreement } from '../src/impact/agreement.js';
import { evaluateChanges } from '../src/impact/evaluate.js';
import { readImpactHits } from '../src/impact/read.js';
import { loadDesired, prepare } from '../src/reconcile/prepare.js';
import { runSettings } from '../src/reconcile/settings.js';
import { loadPolicyTexts } from '../src/policy/validate.js';
import { hintSeed } from './lib/scale.js';
import { seededRandom } from '../src/emulator/demo/prng.js';
import { describeRuntimeEnv, manifestRuntimeEnv, NO_RUNTIME_ENV, type RuntimeEnv } from './lib/runtime-env.js';
import { BENCH_TOKEN, type BenchEmulator } from './lib/emulator-process.js';

const CLIENT = 30001;
const APPLICATION = 7;
const HITS = 100_000;
const HOSTS = 20;
const PATHS = 1_000;
const SOURCES = 5_000;
const WINDOW_SECONDS = 7 * 86_400;
/** Declarations, each a create in an empty account: 1 mode, 300 virtual patches, 300 ignored stamps, 399 deny entries. */
const CHANGES = 1_000;

export interface ImpactFigures {
  readonly hits: number;
  readonly changes: number;
  /** The plan without the impact, in its own process. */
  readonly planMs: number;
  readonly planMaxRssMb: number;
  /** The impact's own part (read, index, evaluate), in the process that planned first. */
  readonly impactMs: number;
  /** Of it, reading and indexing the hits. */
  readonly readMs: number;
  readonly impactMaxRssMb: number;
  readonly listings: number;
  readonly hitsRead: number;
  /** Fetching and parsing the same pages. */
  readonly floorMs: number;
  /** The floor process's peak (Node.js, the client, the pages). */
  readonly floorMaxRssMb: number;
  readonly floorListings: number;
  readonly ratio: number;
  readonly extraRssMb: number;
  /** Heap still in use once collected, impact over plan: what the index of the requests holds. */
  readonly extraRetainedMb: number;
  /** The same two processes under the manifests' runtime settings. */
  readonly manifestEnv: string;
  readonly manifestExtraRssMb: number;
  /** The model's verdicts for the live configuration checked against the recorded ones, and how many agree. */
  readonly agreementChecked: number;
  readonly agreementAgree: number;
}

const host = (i: number) => `shop${i % HOSTS}.example.com`;
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function writePolicies(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const rules: string[] = [];
  for (let i = 0; i < 300; i++) {
    rules.push(`  - name: patch-${i}\n    type: vpatch\n    attack: sqli\n    point: [[get, q]]\n    when:\n      - url: ${host(i)}/api/p${i}\n`);
    rules.push(`  - name: stamp-${i}\n    type: disable_stamp\n    stamp: ${7000 + (i % 50)}\n    point: [[get, q]]\n    when:\n      - url: ${host(i)}/api/p${300 + i}\n`);
  }
  // Every tenth a subnet, apart from the addresses (which the sources use, so some match).
  const deny = Array.from({ length: CHANGES - 601 }, (_, i) => `    - ips: ["${i % 10 === 0 ? `172.${16 + (i >> 8)}.${i & 255}.0/24` : address(i * 16)}"]\n`);
  await writeFile(join(dir, 'impact.yaml'), `version: 1\nclient: ${CLIENT}\napplication: ${APPLICATION}\nmode: block\nrules:\n${rules.join('')}ip_lists:\n  deny:\n${deny.join('')}`);
}

function hitSeeds(nowSeconds: number, count: number): HitSeed[] {
  const random = seededRandom(36);
  return Array.from({ length: count }, (_, i) => {
    const path = Math.floor(random() * PATHS);
    return {
      clientid: CLIENT, poolid: APPLICATION, request_id: `b${i.toString(36)}`, domain: host(path), path: `/api/p${path}`,
      point: ['get', 'q'], type: random() < 0.7 ? 'sqli' : 'xss', stamps: [7000 + Math.floor(random() * 60)],
      ip: address(Math.floor(random() * SOURCES) * 16), value: "1' or 1=1", block_status: 'monitored',
      time: nowSeconds - 3_600 - Math.floor(random() * (WINDOW_SECONDS - 7_200)),
    };
  });
}

/**
 * The application's `monitoring` mode, Rampart's, unchanged since before the
 * window: the plan switches it to `block` (still one change of the 1,000),
 * and the model's agreement checks every hit it governs against what the
 * service recorded (monitored, as monitoring records them).
 */
async function seedLiveMode(emulator: BenchEmulator, nowSeconds: number): Promise<void> {
  const [rule] = loadPolicyTexts([{ file: 'live.yaml', text: `version: 1\nclient: ${CLIENT}\napplication: ${APPLICATION}\nmode: monitoring\n` }]).desired?.rules ?? [];
  if (!rule) throw new Error('the live mode rule did not compile');
  await emulator.seedHints([{ ...hintSeed(rule, 'rampart'), updated_at: nowSeconds - WINDOW_SECONDS - 3_600 }]);
}

/** `hits`: the window's size; `--quick` reads a tenth, so the quick run stays short. */
export async function benchImpact(emulator: BenchEmulator, policies: string, hits = HITS): Promise<ImpactFigures> {
  await emulator.reset();
  await emulator.setConfig({ demoTraffic: false });
  await writePolicies(policies);
  const nowSeconds = Math.floor(Date.now() / 1000);
  await seedLiveMode(emulator, nowSeconds);
  const seeds = hitSeeds(nowSeconds, hits);
  for (let i = 0; i < seeds.length; i += 2_000) await emulator.admin('POST', '/__admin/seed/hits', { hits: seeds.slice(i, i + 2_000) });
  const plan = await runChild<ChildReport>('plan', emulator.url, policies);
  const impact = await runChild<ChildReport>('impact', emulator.url, policies);
  const floor = await runChild<FloorReport>('floor', emulator.url, policies);
  const manifest = await manifestRuntimeEnv();
  const planUnder = await runChild<ChildReport>('plan', emulator.url, policies, manifest);
  const impactUnder = await runChild<ChildReport>('impact', emulator.url, policies, manifest);
  if (plan.changes !== CHANGES || impact.changes !== CHANGES) throw new Error(`the bench plan has ${plan.changes} changes, not ${CHANGES}`);
  return {
    hits, changes: CHANGES,
    planMs: plan.planMs, planMaxRssMb: plan.maxRssMb,
    impactMs: impact.impactMs, readMs: impact.readMs, impactMaxRssMb: impact.maxRssMb, listings: impact.listings, hitsRead: impact.hitsRead,
    floorMs: floor.floorMs, floorListings: floor.listings, floorMaxRssMb: floor.maxRssMb,
    agreementChecked: impact.agreementChecked, agreementAgree: impact.agreementAgree,
    ratio: Math.round((impact.impactMs / floor.floorMs) * 100) / 100,
    extraRssMb: impact.maxRssMb - plan.maxRssMb,
    extraRetainedMb: impact.retainedMb - plan.retainedMb,
    manifestEnv: describeRuntimeEnv(manifest),
    manifestExtraRssMb: impactUnder.maxRssMb - planUnder.maxRssMb,
  };
}

interface ChildReport {
  readonly changes: number;
  readonly planMs: number;
  readonly impactMs: number;
  /** Of `impactMs`, reading and indexing the hits; the rest is evaluating the changes. */
  readonly readMs: number;
  readonly listings: number;
  readonly hitsRead: number;
  readonly maxRssMb: number;
  /** The model's verdicts checked against the recorded ones, and how many agree (impact/agreement.ts). */
  readonly agreementChecked: number;
  readonly agreementAgree: number;
  /** Heap in use after a full collection, at the end. */
  readonly retainedMb: number;
}

interface FloorReport {
  readonly floorMs: number;
  readonly listings: number;
  readonly maxRssMb: number;
}

function runChild<T>(mode: 'plan' | 'impact' | 'floor', url: string, policies: string, runtime: RuntimeEnv = NO_RUNTIME_ENV): Promise<T> {
  return new Promise((resolve, reject) => {
    // BENCH_PROFILE_DIR: write a CPU profile of each process there (open it in Chrome DevTools).
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE_DIR] : [];
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_API_URL: url };
    for (const [name, value] of Object.entries(runtime)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    const child = spawn(process.execPath, [...profile, '--expose-gc', fileURLToPath(import.meta.url), mode, policies], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`the ${mode} process exited with ${code}`))));
  });
}

const maxRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

async function child(mode: string, policies: string): Promise<void> {
  const http = new ApiClient({ baseUrl: process.env.BENCH_API_URL ?? '', credentials: { token: BENCH_TOKEN } });
  const api = new ServiceApi(http);
  const nowSeconds = Math.floor(Date.now() / 1000);
  const window = { from: nowSeconds - WINDOW_SECONDS, to: nowSeconds };
  if (mode === 'floor') {
    const started = performance.now();
    const listings = await floorRead(api, window);
    process.stdout.write(JSON.stringify({ floorMs: Math.round(performance.now() - started), listings, maxRssMb: maxRssMb() } satisfies FloorReport));
  } else {
    const started = performance.now();
    const prepared = await prepare({ policies, policy: await loadDesired({ policies }), api, settings: runSettings({ owner: 'rampart' }) });
    const planned = performance.now();
    let readMs = 0;
    let plan = prepared.plan;
    if (mode === 'impact') {
      // The steps of withImpact, timed apart: reading (and indexing) the hits, then evaluating the changes.
      const read = await readImpactHits(api, plan.changes, window);
      readMs = performance.now() - planned;
      const impacts = evaluateChanges({ changes: plan.changes, live: prepared.live, seen: read.seen, experimental: read.experimental });
      const agreement = modelAgreement(prepared.live, read.seen);
      plan = { ...plan, impacts, impact: { windowSeconds: WINDOW_SECONDS, hitsRead: read.seen.size + read.experimental.size, listings: read.listings, complete: true, notEvaluable: 0, agreement } };
    }
    const peak = maxRssMb();
    globalThis.gc?.();
    const report: ChildReport = {
      changes: plan.changes.length, planMs: Math.round(planned - started), impactMs: Math.round(performance.now() - planned),
      readMs: Math.round(readMs), listings: plan.impact?.listings ?? 0, hitsRead: plan.impact?.hitsRead ?? 0, maxRssMb: peak,
      agreementChecked: plan.impact?.agreement?.checked ?? 0, agreementAgree: plan.impact?.agreement?.agree ?? 0,
      // Collected above while the plan (and its impact) are still used below: what the process holds for the output.
      retainedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    };
    process.stdout.write(JSON.stringify(report));
  }
  await http.close();
}

/**
 * The impact's listing pages, fetched and parsed through the same client and
 * in the same slices, and nothing more: newest first, as the service's client
 * reads them, each slice ending at the second the last one ended on.
 */
async function floorRead(api: ServiceApi, window: { from: number; to: number }): Promise<number> {
  let listings = 0;
  let to = window.to;
  for (;;) {
    let last = to;
    let capped = true;
    for (let offset = 0; offset + HIT_PAGE_LIMIT <= HIT_OFFSET_CAP; offset += HIT_PAGE_LIMIT) {
      const page = await api.listHits(CLIENT, { ...standardHitFilter({ from: window.from, to }), poolid: [APPLICATION] }, offset);
      listings += 1;
      last = (page[page.length - 1] as { time?: number } | undefined)?.time ?? last;
      if (page.length < HIT_PAGE_LIMIT) {
        capped = false;
        break;
      }
    }
    if (!capped) return listings;
    // A slice of one second still full: the reader refuses it too.
    if (last >= to) throw new Error('the floor read a second holding more hits than one filter can page through');
    to = last;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await child(process.argv[2] ?? '', process.argv[3] ?? '');
}
