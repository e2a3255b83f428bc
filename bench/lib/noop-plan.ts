/**
 * No-op plan at scale: seed the emulator with exactly what the policies
 * declare, then time `prepare` (load → read live → plan), the same steps as
 * `rampart plan`, in a fresh process, and count its API calls against the
 * minimum a full read needs. Run directly, this module is that fresh process.
 */
import { spawn } from 'node:child_process';
import { getHeapStatistics } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiClient } from '../../src/api/client.js';
import { HINT_PAGE_LIMIT, IP_GROUP_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, ServiceApi } from '../../src/api/service.js';
import type { IpApiName } from '../../src/model/ip-list-apis.js';
import { minimumListingCalls } from '../../src/live/paging.js';
import { IP_LISTS } from '../../src/model/ip.js';
import { loadPolicies } from '../../src/policy/index.js';
import { loadDesired, prepare } from '../../src/reconcile/prepare.js';
import type { CallRecord } from '../../src/emulator/index.js';
import { BENCH_TOKEN, type BenchEmulator } from './emulator-process.js';
import { measureFloor, type FloorFigures, type FloorListing } from './floor.js';
import { hintSeed, ipSeed, writeScalePolicies, type ScaleSpec } from './scale.js';
import { runSettings } from '../../src/reconcile/settings.js';

const OWNER = 'rampart';
/** Page calls in flight, the plan's default (readLiveState). */
const READ_CONCURRENCY = 8;

export interface NoopRun {
  readonly totalMs: number;
  readonly loadMs: number;
  readonly readMs: number;
  readonly planMs: number;
  readonly cpuMs: number;
}

export interface NoopPlanFigures {
  readonly rules: number;
  readonly ipValues: number;
  readonly clients: number;
  /** Latency the emulator added to every call. */
  readonly latencyMs: number;
  /** The IP-list API the plan read. */
  readonly ipApi: IpApiName;
  /** First plan in a fresh process (what `rampart plan` costs, without node's start-up). */
  readonly cold: NoopRun;
  /** The same plan again in that process (what a daemon cycle costs). */
  readonly warm: NoopRun;
  /** The floor of the same work, measured right after the plan (floor.ts). */
  readonly floor: FloorFigures;
  /** The same floor with the schema validation every validating tool does, measured right after it. */
  readonly validatingFloor: FloorFigures;
  readonly calls: number;
  readonly minimumCalls: number;
  readonly hintPages: number;
  readonly ipPages: number;
  /** One call per client for its credential-stuffing rules. */
  readonly credentialCalls: number;
  readonly applicationCalls: number;
  readonly changes: number;
  /** Time the emulator spent answering the cold plan's calls (sum over calls; they overlap). */
  readonly serverMs: number;
  readonly rssMb: number;
  /** Peak resident set of the process as the cold plan ends: what one `rampart plan` reaches. */
  readonly maxRssMb: number;
  /** The same after the warm plan too, which runs in the same process with the first plan's cache. */
  readonly maxRssWithWarmMb: number;
  readonly heapUsedMb: number;
  /** The highest heap in use sampled during the cold plan (every 5 ms, between the plan's synchronous steps). */
  readonly peakHeapUsedMb: number;
  /**
   * Cold plan / floor of every run, in run order (`--repeat`); the figures
   * above are those of the run with the median ratio. Each run is a plan
   * process and its floor right after it, so a machine that slows down over
   * the minutes slows both.
   */
  readonly ratios: readonly number[];
  /** Whether every run made exactly the minimum of calls (the figures' run is one of them). */
  readonly everyRunMinimal: boolean;
}

interface ChildReport {
  cold: NoopRun;
  warm: NoopRun;
  calls: number;
  changes: number;
  rssMb: number;
  maxRssMb: number;
  maxRssWithWarmMb: number;
  heapUsedMb: number;
  peakHeapUsedMb: number;
}

/** `ipApi`: the IP-list API the plan reads (its pages and the floor's are that API's). */
export async function benchNoopPlan(emulator: BenchEmulator, spec: ScaleSpec, policies: string, latencyMs = 0, runs = 1, ipApi: IpApiName = 'v4'): Promise<NoopPlanFigures> {
  await emulator.reset();
  await writeScalePolicies(policies, spec);
  const loaded = await loadPolicies(policies);
  if (!loaded.desired) throw new Error(`generated policies are invalid: ${JSON.stringify(loaded.diagnostics.slice(0, 2))}`);
  const { desired } = loaded;
  await emulator.seedHints(desired.rules.map((rule) => hintSeed(rule, OWNER)));
  await emulator.seedIpObjects(desired.ipEntries.map((entry) => ipSeed(entry, OWNER)));

  let hintPages = 0;
  let ipPages = 0;
  const listings: FloorListing[] = [];
  for (const client of desired.clients) {
    const rules = desired.rules.filter((r) => r.client === client).length;
    hintPages += minimumListingCalls(rules, HINT_PAGE_LIMIT);
    // The applications too: every scale file names one (one page per client).
    listings.push({ client, list: 'rules', objects: rules }, { client, list: 'credentials', objects: 0 }, { client, list: 'applications', objects: 1 });
    for (const list of IP_LISTS) {
      const objects = desired.ipEntries.filter((e) => e.client === client && e.list === list).length;
      ipPages += minimumListingCalls(objects, ipApi === 'groups' ? IP_GROUP_PAGE_LIMIT : IP_RULE_PAGE_LIMIT);
      listings.push({ client, list, objects, ...(ipApi === 'groups' ? { api: 'groups' as const } : {}) });
    }
  }

  const credentialCalls = desired.clients.length;
  // Each client's applications, one page (the scale accounts have 101).
  const applicationCalls = desired.clients.length;
  const minimumCalls = hintPages + ipPages + credentialCalls + applicationCalls;
  const measured: Run[] = [];
  await emulator.setConfig({ latencyMs });
  try {
    for (let run = 0; run < runs; run++) {
      await emulator.resetCalls();
      const report = await runChild(emulator.url, policies, ipApi);
      const { calls } = await emulator.calls();
      const floorOf = (validate: boolean) => measureFloor({ url: emulator.url, policies, listings, concurrency: READ_CONCURRENCY, validate });
      const floor = await floorOf(false);
      const validatingFloor = await floorOf(true);
      for (const f of [floor, validatingFloor]) {
        if (f.calls !== minimumCalls) throw new Error(`the floor made ${f.calls} calls, not the ${minimumCalls} of a full read`);
      }
      if (report.changes !== 0) throw new Error(`the seeded account is not a no-op: ${report.changes} change(s) planned`);
      measured.push({ report, floor, validatingFloor, coldCalls: calls.slice(0, report.calls) });
    }
  } finally {
    await emulator.setConfig({ latencyMs: 0 });
  }
  const ratioOf = (run: Run): number => run.report.cold.totalMs / run.floor.totalMs;
  const { report, floor, validatingFloor, coldCalls } = [...measured].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor((measured.length - 1) / 2)] as Run;
  return {
    rules: desired.rules.length,
    ipValues: desired.ipEntries.length,
    clients: desired.clients.length,
    latencyMs,
    ipApi,
    cold: report.cold,
    warm: report.warm,
    floor,
    validatingFloor,
    calls: report.calls,
    minimumCalls,
    hintPages,
    ipPages,
    credentialCalls,
    applicationCalls,
    changes: report.changes,
    serverMs: Math.round(coldCalls.reduce((sum, call) => sum + call.durationMs, 0)),
    rssMb: report.rssMb,
    maxRssMb: report.maxRssMb,
    maxRssWithWarmMb: report.maxRssWithWarmMb,
    heapUsedMb: report.heapUsedMb,
    peakHeapUsedMb: report.peakHeapUsedMb,
    ratios: measured.map(ratioOf),
    everyRunMinimal: measured.every((run) => run.report.calls === minimumCalls),
  };
}

/** One plan process and the floors measured right after it. */
interface Run {
  readonly report: ChildReport;
  readonly floor: FloorFigures;
  readonly validatingFloor: FloorFigures;
  readonly coldCalls: readonly CallRecord[];
}

function runChild(url: string, policies: string, ipApi: IpApiName): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    // BENCH_PROFILE_DIR: write a CPU profile of the plan process there (open it in Chrome DevTools).
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE_DIR] : [];
    // BENCH_PLAN_HEAP_MB: cap the plan process's heap as the manifests do (NODE_OPTIONS there), to find what it needs.
    const heapCap = process.env.BENCH_PLAN_HEAP_MB ? [`--max-old-space-size=${process.env.BENCH_PLAN_HEAP_MB}`] : [];
    // BENCH_PLAN_NODE_FLAGS: more node flags for the plan process (e.g. `--max-semi-space-size=4`), space-separated.
    const nodeFlags = process.env.BENCH_PLAN_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...profile, ...heapCap, ...nodeFlags, fileURLToPath(import.meta.url), policies], {
      env: { ...process.env, BENCH_API_URL: url, BENCH_IP_API: ipApi },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the no-op plan process exited with ${code}`));
      else resolve(JSON.parse(out) as ChildReport);
    });
  });
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
const maxRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

async function timedPrepare(api: ServiceApi, policies: string): Promise<{ run: NoopRun; changes: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  // A daemon loads its policies anew only when they changed; the warm run loads them again, as `rampart plan` would.
  const policy = await loadDesired({ policies });
  const loadMs = Math.round(performance.now() - started);
  const prepared = await prepare({ policies, policy, api, settings: runSettings({ owner: OWNER }) });
  const totalMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const { readMs, planMs } = prepared.timings;
  return {
    run: { totalMs: Math.round(totalMs), loadMs, readMs, planMs, cpuMs: Math.round((used.user + used.system) / 1000) },
    changes: prepared.plan.changes.length,
  };
}

async function child(policies: string): Promise<void> {
  const http = new ApiClient({ baseUrl: process.env.BENCH_API_URL ?? '', credentials: { token: BENCH_TOKEN } });
  const api = new ServiceApi(http, process.env.BENCH_IP_API === 'groups' ? 'groups' : 'v4');
  // The heap in use at its highest, sampled: the live data's share of the peak RSS (the rest is garbage not yet collected).
  let peakHeap = 0;
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size)), 5);
  const cold = await timedPrepare(api, policies);
  const coldMaxRssMb = maxRssMb();
  const coldPeakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
  const calls = http.totalCalls;
  const warm = await timedPrepare(api, policies);
  clearInterval(sampler);
  const memory = process.memoryUsage();
  await http.close();
  const report: ChildReport = {
    cold: cold.run,
    warm: warm.run,
    calls,
    changes: cold.changes + warm.changes,
    rssMb: mb(memory.rss),
    maxRssMb: coldMaxRssMb,
    maxRssWithWarmMb: maxRssMb(),
    heapUsedMb: mb(memory.heapUsed),
    peakHeapUsedMb: mb(coldPeakHeap),
  };
  process.stdout.write(JSON.stringify(report));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await child(process.argv[2] ?? '');
}
