/**
 * `npm run bench` (`-- --quick` for a run under a minute, `-- --json` for
 * machine-readable output): Rampart's figures at scale, measured against the
 * emulator running in a process of its own.
 *
 *   - no-op plan (load → read → plan) at 1k to 50k rules and IP values, with
 *     its API calls beside the minimum a full read needs;
 *   - apply of 1,000 creates and 1,000 deletes at 20 ms per call;
 *   - diff and plan of 100k objects (bench/diff.ts), validate of 1,000 files
 *     (bench/validate.ts);
 *   - the daemon: edit-to-first-call latency and resident memory;
 *   - nested values: a no-op plan over 1,000 abuse controls beside 1,000 vpatch rules (bench/kinds.ts);
 *   - the first plan of a large account: every declaration a create, each printed with its line;
 *   - `--impact` over 100k hits (10k with `--quick`) and 1,000 changes against fetching the same pages (bench/impact.ts).
 *
 * Speed is measured, not asserted: this prints figures; the tests check behaviour.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchFigures as DiffFigures } from './diff.js';
import { benchImpact, type ImpactFigures } from './impact.js';
import { benchKinds, type KindFigures } from './kinds.js';
import { benchApply, type ApplyFigures } from './lib/apply-bench.js';
import { benchDaemon, type DaemonFigures } from './lib/daemon-bench.js';
import { benchDaemonAtScale, type DaemonScaleFigures } from './lib/daemon-scale.js';
import { benchFirstPlan, type FirstPlanFigures } from './lib/first-plan.js';
import { spawnEmulator } from './lib/emulator-process.js';
import { goalRows } from './lib/goals.js';
import { compare, comparisonRows, machineClass, updated, type Baseline } from './lib/baseline.js';
import { figuresOf } from './lib/figures.js';
import { machineInfo, type MachineInfo } from './lib/machine.js';
import { benchNoopPlan, type NoopPlanFigures } from './lib/noop-plan.js';
import { ensureCliBuilt } from './soak/build.js';
import { benchValidate, type ValidateFigures } from './validate.js';

interface Results {
  machine: MachineInfo;
  mode: 'quick' | 'full';
  validate?: ValidateFigures;
  diff?: DiffFigures;
  noopPlans: NoopPlanFigures[];
  applies: ApplyFigures[];
  daemon?: DaemonFigures;
  daemonAtScale?: DaemonScaleFigures;
  kinds?: KindFigures;
  firstPlan?: FirstPlanFigures;
  impact?: ImpactFigures;
  totalMs: number;
}

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    /** Also write the JSON figures to this file (the table still goes to stdout). */
    'json-file': { type: 'string' },
    /** Only these no-op plans, `RULES,IPVALUES,LATENCYMS` each (e.g. `--scale 10000,50000,50`); nothing else. */
    scale: { type: 'string', multiple: true },
    /** Only the daemon over 10k rules + 50k IP values (its memory under the manifests' Node.js options). */
    'daemon-scale': { type: 'boolean', default: false },
    /** Only the no-op plan over 1,000 abuse controls beside one over 1,000 vpatch rules (bench/kinds.ts). */
    kinds: { type: 'boolean', default: false },
    /** Only the first plan of 10k rules + 50k IP values against an empty account (bench/lib/first-plan.ts). */
    'first-plan': { type: 'boolean', default: false },
    /** Only `plan --impact` over 100k hits and 1,000 changes against its floor (bench/impact.ts). */
    impact: { type: 'boolean', default: false },
    /** Each no-op plan this many times, each with its floor right after it: the run of the median × floor is shown, with the range. */
    repeat: { type: 'string', default: '1' },
    /** Exit 1 when a figure regressed past its tolerance against the baseline of this machine class (bench/lib/baseline.ts). */
    check: { type: 'boolean', default: false },
    /** Write this run's figures as the baseline of this machine class and mode: a deliberate step, reviewed like code. */
    'update-baseline': { type: 'boolean', default: false },
    /** The baseline file (default bench/baseline.json). */
    baseline: { type: 'string' },
  },
});
const onlyScales = flags.scale?.map((spec) => {
  const [rules, ipValues, latencyMs = 0] = spec.split(',').map(Number);
  if (!Number.isInteger(rules) || !Number.isInteger(ipValues) || !Number.isFinite(latencyMs)) throw new Error(`--scale wants RULES,IPVALUES[,LATENCYMS], got ${spec}`);
  return [rules, ipValues, latencyMs] as [number, number, number];
});
const quick = flags.quick;
const repeat = Number(flags.repeat);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat wants a whole number of runs, got ${flags.repeat}`);
const progress = (line: string): void => {
  process.stderr.write(`bench: ${line}\n`);
};

function runDiffProcess(objects: number): Promise<DiffFigures> {
  const script = join(fileURLToPath(new URL('.', import.meta.url)), 'diff.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', script, String(objects)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as DiffFigures) : reject(new Error(`bench/diff exited with ${code}`))));
  });
}

async function main(): Promise<Results> {
  const started = performance.now();
  const results: Results = { machine: machineInfo(), mode: quick ? 'quick' : 'full', noopPlans: [], applies: [], totalMs: 0 };
  const cli = ensureCliBuilt();
  const work = await mkdtemp(join(tmpdir(), 'rampart-bench-'));
  const policies = join(work, 'policies');
  const emulator = await spawnEmulator();
  try {
    if (flags['daemon-scale']) {
      results.daemonAtScale = await benchDaemonAtScale(emulator, { cli, policies, spec: { rules: 10_000, ipValues: 50_000 }, cycles: 2 });
      return results;
    }
    if (flags.kinds) {
      results.kinds = await benchKinds(emulator, policies);
      return results;
    }
    if (flags.impact) {
      results.impact = await benchImpact(emulator, policies);
      return results;
    }
    if (flags['first-plan']) {
      results.firstPlan = await benchFirstPlan(emulator, FIRST_PLAN_SCALE, policies);
      return results;
    }
    if (onlyScales) {
      for (const [rules, ipValues, latencyMs] of onlyScales) results.noopPlans.push(await benchNoopPlan(emulator, { rules, ipValues }, policies, latencyMs, repeat));
      return results;
    }
    progress('validate: 1,000 files');
    results.validate = await benchValidate();
    progress('diff: 100k objects');
    results.diff = await runDiffProcess(100_000);

    const scales: [number, number, number][] = quick
      ? [[1_000, 1_000, 0], [10_000, 10_000, 0]]
      : [[1_000, 1_000, 0], [10_000, 10_000, 0], [10_000, 50_000, 0], [50_000, 50_000, 0], [100_000, 100_000, 0], [10_000, 50_000, 50]];
    for (const [rules, ipValues, latencyMs] of scales) {
      progress(`no-op plan: ${rules} rules, ${ipValues} IP values${latencyMs ? `, ${latencyMs} ms per call` : ''}`);
      results.noopPlans.push(await benchNoopPlan(emulator, { rules, ipValues }, policies, latencyMs, repeat));
    }
    // The same read on the successor IP-list API: its calls at its own minimum.
    progress('no-op plan: 10000 rules, 10000 IP values, on the groups IP-list API');
    results.noopPlans.push(await benchNoopPlan(emulator, { rules: 10_000, ipValues: 10_000 }, policies, 0, repeat, 'groups'));
    for (const kind of quick ? (['rules'] as const) : (['rules', 'ip'] as const)) {
      progress(`apply: 1,000 creates + 1,000 deletes (${kind}), 20 ms per call`);
      results.applies.push(await benchApply(emulator, { kind, count: 1_000, latencyMs: 20, policies }));
    }
    if (!quick) {
      progress('first plan: 10k rules + 50k IP values against an empty account');
      results.firstPlan = await benchFirstPlan(emulator, FIRST_PLAN_SCALE, policies);
    }
    progress(`plan --impact: ${quick ? '10k' : '100k'} hits, 1,000 changes`);
    results.impact = await benchImpact(emulator, policies, quick ? 10_000 : undefined);
    progress('no-op plan: 1,000 abuse controls beside 1,000 vpatch rules');
    results.kinds = await benchKinds(emulator, policies, quick ? 'quick' : 'full');
    progress('daemon: start, idle memory, edit-to-first-call');
    results.daemon = await benchDaemon(emulator, { cli, policies, rules: 300, edits: quick ? 2 : 5 });
    if (!quick) {
      progress('daemon: 10k rules + 50k IP values, memory over three cycles');
      results.daemonAtScale = await benchDaemonAtScale(emulator, { cli, policies, spec: { rules: 10_000, ipValues: 50_000 }, cycles: 2 });
    }
  } finally {
    await emulator.close();
    await rm(work, { recursive: true, force: true });
    results.totalMs = Math.round(performance.now() - started);
  }
  return results;
}

/** The first plan's account: the no-op plans' 10k rules + 50k IP values, none of them there yet. */
const FIRST_PLAN_SCALE = { rules: 10_000, ipValues: 50_000 } as const;

const k = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const ratio = (ms: number, floorMs: number): string => `${(ms / floorMs).toFixed(1)}×`;
/** The × floor of a no-op plan, with the range over its runs when there were several. */
const floorRatio = (p: NoopPlanFigures): string => {
  if (p.ratios.length < 2) return ratio(p.cold.totalMs, p.floor.totalMs);
  return `${ratio(p.cold.totalMs, p.floor.totalMs)} (${Math.min(...p.ratios).toFixed(1)} to ${Math.max(...p.ratios).toFixed(1)}, ${p.ratios.length} runs)`;
};
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function render(r: Results): string {
  const m = r.machine;
  const out: string[] = [
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM (${m.freeMemoryGb} GB free), Node ${m.node}, ${m.platform}; load average ${m.loadAverage} at start`,
    `Mode: ${r.mode}; total ${s(r.totalMs)}. Wall times on a shared machine are noisy: CPU time is given where it helps.`,
    '',
    'No-op plan (load + validate policies → read every listing → diff + plan), a fresh process, emulator in another:',
    table(
      ['rules', 'IP values', 'latency', 'plan (cold)', 'load', 'read', 'diff+plan', 'CPU', 'floor (load + read)', '× floor', '× validating floor', 'plan (warm)', 'API calls', 'minimum', 'peak RSS, cold (heap); with warm', 'floor peak RSS'],
      r.noopPlans.map((p) => [
        k(p.rules), k(p.ipValues), `${p.latencyMs} ms${p.ipApi === 'groups' ? ', groups' : ''}`, s(p.cold.totalMs), s(p.cold.loadMs), s(p.cold.readMs), s(p.cold.planMs), s(p.cold.cpuMs),
        `${s(p.floor.totalMs)} (${s(p.floor.loadMs)} + ${s(p.floor.readMs)})`, floorRatio(p),
        `${ratio(p.cold.totalMs, p.validatingFloor.totalMs)} of ${s(p.validatingFloor.totalMs)}`,
        s(p.warm.totalMs), String(p.calls), `${p.minimumCalls} (${p.hintPages} hint + ${p.ipPages} IP pages + ${p.credentialCalls} credential + ${p.applicationCalls} applications)`, `${p.maxRssMb} MB (${p.peakHeapUsedMb} MB); ${p.maxRssWithWarmMb} MB`,
        `${p.floor.maxRssMb} MB (${ratio(p.maxRssMb, p.floor.maxRssMb)})`,
      ]),
    ),
    'floor: read every policy file and parse it with js-yaml, then fetch and parse every listing page (sizes known, 8 in flight), in a fresh process, holding both inputs to the end as a plan does; × floor = plan (cold) / floor. The floor\'s peak RSS is the memory floor of a plan, in brackets the cold plan\'s peak over it. The validating floor also checks each parsed file against the policy schema with Rampart\'s generated validator.' +
      (repeat > 1 ? ` Each row is the run of the median × floor out of ${repeat}, each plan followed by its own floor.` : ''),
    '',
    'Apply (real prepare + applyPlan, concurrency 8, settle polling included), 20 ms added to every call:',
    table(
      ['objects', 'creates', 'deletes', 'wall', 'of which apply', 'API calls', 'minimum', 'writes', 'listings', 'effective concurrency', 'CPU'],
      r.applies.map((a) => [
        a.kind === 'rules' ? 'rules' : 'IP values', String(a.creates), String(a.deletes), s(a.wallMs), s(a.applyMs), String(a.calls),
        `${a.minimumCalls} (${a.minimumWriteCalls} writes + ${a.planReadCalls} read + ${a.settleMinimumCalls} settle)`,
        String(a.writeCalls), String(a.listingCalls), String(a.effectiveConcurrency), s(a.cpuMs),
      ]),
    ),
  ];
  const rows: string[][] = [];
  if (r.diff) {
    rows.push(['diff + plan, 100k objects', `buildPlan ${s(r.diff.planMs)} (of which diff ${s(r.diff.diffMs)}), document + checksum + digests ${s(r.diff.checksumMs)}, JSON ${s(r.diff.renderJsonMs)}; floor ${s(r.diff.floorMs)}`,
      `${r.diff.changes} changes; heap +${r.diff.heapUsedDeltaMb} MB; peak RSS ${r.diff.maxRssMb} MB`]);
  }
  if (r.validate) rows.push(['validate, 1,000 files', s(r.validate.ms), `CPU ${s(r.validate.cpuMs)}; heap held ${r.validate.heldMb.toFixed(1)} MB, peak +${r.validate.peakHeapMb.toFixed(1)} MB`]);
  if (r.daemon) {
    const d = r.daemon;
    rows.push(['daemon: edit → first API call', `${median(d.editToFirstCallMs)} ms median`, `each: ${d.editToFirstCallMs.join(', ')} ms (debounce 200 ms included)`]);
    rows.push(['daemon: edit → first write', `${median(d.editToFirstWriteMs)} ms median`, `each: ${d.editToFirstWriteMs.join(', ')} ms`]);
    rows.push(['daemon RSS, idle', `${d.idleRssMb} MB; ${d.idleRssManifestMb} MB under the manifests' options; floor ${d.idleFloorMb} MB (Node.js alone serving HTTP)`,
      `after start-up and a first cycle over ${d.rules} rules (ready in ${d.startupMs} ms); the manifests': ${d.manifestEnv}`]);
  }
  if (r.daemonAtScale) {
    const d = r.daemonAtScale;
    rows.push([`daemon RSS, ${k(d.rules)} rules + ${k(d.ipValues)} IP`, `${d.rssAfterCyclesMb} MB after ${d.cycles} cycles, peak ${d.peakRssMb} MB`,
      `${d.runtimeEnv}; ${d.rssAfterFirstCycleMb} MB after the first cycle (${s(d.firstCycleMs)} from start); CPU ${s(d.cpuPerResyncMs)} per resync cycle`]);
  }
  if (r.kinds) {
    const x = r.kinds;
    rows.push([`no-op plan, ${k(x.rules)} abuse controls vs ${k(x.rules)} vpatch`, `${s(x.controlsPlanMs)} vs ${s(x.vpatchPlanMs)} (${x.planRatio}×)`,
      `fresh process, emulator read (${x.planRuns > 1 ? `median of ${x.planRuns} cold plans` : 'one cold plan'}); in process without the read: ${x.controlsMs} vs ${x.vpatchMs} ms (${x.ratio}×)`]);
  }
  if (r.impact) {
    const x = r.impact;
    rows.push([`plan --impact, ${k(x.hits)} hits, ${k(x.changes)} changes`, `impact ${s(x.impactMs)} against a floor of ${s(x.floorMs)} (${x.ratio}×)`,
      `read and index ${s(x.readMs)}, evaluate ${s(x.impactMs - x.readMs)}; ${x.listings} listings (floor ${x.floorListings}), ${x.hitsRead.toLocaleString('en-US')} hits read; the model agrees with ${x.agreementAgree} of ${x.agreementChecked} recorded verdicts checked; plan without it ${s(x.planMs)}; peak RSS ${x.impactMaxRssMb} MB against ${x.planMaxRssMb} MB without (+${x.extraRssMb} MB; +${x.manifestExtraRssMb} MB under ${x.manifestEnv}), the floor's ${x.floorMaxRssMb} MB; heap held +${x.extraRetainedMb} MB`]);
  }
  const growth = growthRow(r.noopPlans);
  if (growth) rows.push(growth);
  const largest = [...r.noopPlans].sort((a, b) => b.rules + b.ipValues - (a.rules + a.ipValues))[0];
  const first = r.firstPlan;
  if (first) {
    rows.push([
      `first plan (${k(first.rules)} rules + ${k(first.ipValues)} IP, an empty account)`, `${s(first.totalMs)}, peak ${first.maxRssMb} MB`,
      `${first.changes.toLocaleString('en-US')} creates; load ${s(first.loadMs)}, read ${s(first.readMs)}, plan ${s(first.planMs)}, text plan with every line ${s(first.renderMs)}`,
    ]);
  }
  if (largest) rows.push([`RSS at scale (${k(largest.rules)} rules + ${k(largest.ipValues)} IP)`, `${largest.rssMb} MB after plan`, `peak ${largest.maxRssMb} MB, heap ${largest.heapUsedMb} MB`]);
  out.push('', 'Other figures:', table(['what', 'figure', 'detail'], rows));
  const goals = goalRows(r);
  if (goals.length > 0) {
    out.push('', 'Goals (issues 23, 36, 48 and 49), each judged on this run:', table(['goal', 'figure', 'met'], goals.map((g) => [g.goal, g.figure, g.met ? 'yes' : 'no'])));
  }
  return out.join('\n');
}

/** How a cold plan grows when the account doubles (50k + 50k → 100k + 100k at 0 ms): linear is 2×, the goal at most 2.2×. */
function growthRow(plans: readonly NoopPlanFigures[]): string[] | undefined {
  const at = (n: number) => plans.find((p) => p.rules === n && p.ipValues === n && p.latencyMs === 0);
  const [half, full] = [at(50_000), at(100_000)];
  if (!half || !full) return undefined;
  const ratio = (full.cold.totalMs / half.cold.totalMs).toFixed(2);
  const memory = (full.maxRssMb / half.maxRssMb).toFixed(2);
  return ['growth, 50k + 50k → 100k + 100k', `cold plan ${ratio}× (goal ≤ 2.2×)`,
    `${(half.cold.totalMs / 1000).toFixed(2)} s → ${(full.cold.totalMs / 1000).toFixed(2)} s; peak RSS ${half.maxRssMb} → ${full.maxRssMb} MB (${memory}×)`];
}

const results = await main();
console.log(flags.json ? JSON.stringify(results, null, 2) : render(results));
if (flags['json-file']) await writeFile(flags['json-file'], `${JSON.stringify(results, null, 2)}\n`);
process.exitCode = await againstBaseline(results);

/** Prints each figure beside the committed baseline of this machine class; updates it when asked; the exit code `--check` wants. */
async function againstBaseline(r: Results): Promise<number> {
  const file = flags.baseline ?? join(fileURLToPath(new URL('../..', import.meta.url)), 'bench', 'baseline.json');
  const baseline = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Baseline;
  const machine = machineClass(r.machine);
  const figures = figuresOf(r);
  const compared = compare(figures, baseline[machine]?.[r.mode]);
  const out = process.stderr;
  out.write(`\nAgainst the baseline of ${machine}, ${r.mode} (${baseline[machine]?.[r.mode]?.date ?? 'none yet'}):\n`);
  out.write(`${table(['figure', 'now', 'baseline', 'ratio', 'verdict'], comparisonRows(compared))}\n`);
  const regressions = compared.filter((c) => c.regression);
  if (flags['update-baseline']) {
    const m = r.machine;
    const entry = { machine: `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM, Node ${m.node}, ${m.platform}`, date: new Date().toISOString().slice(0, 10), figures: Object.fromEntries(figures.map((f) => [f.name, Math.round(f.value * 100) / 100])) };
    await writeFile(file, `${JSON.stringify(updated(baseline, machine, r.mode, entry), null, 2)}\n`);
    out.write(`wrote the ${r.mode} baseline of ${machine} to ${file}\n`);
    return 0;
  }
  if (regressions.length > 0) out.write(`${regressions.length} figure(s) regressed past their tolerance${flags.check ? '' : ' (--check makes that an error)'}\n`);
  return flags.check && regressions.length > 0 ? 1 : 0;
}
