/**
 * Benchmark (not a test): what nested values cost. A no-op plan over 1,000
 * abuse mitigation controls (threshold, reaction, enumerated parameters, all
 * nested) against one over 1,000 virtual patches (flat), twice: as `rampart
 * plan` runs it (a fresh process reading the emulator, bench/lib/noop-plan.ts)
 * and in process without the HTTP read (load + validate + normalize the
 * policy, normalize the listing's records, diff and plan), which isolates the
 * CPU the kinds cost. Target: controls within 10% of vpatch rules.
 * `npm run bench -- --kinds` runs only this.
 */
import { stringify } from 'yaml';
import type { ApiHint } from '../src/api/records.js';
import { hintCreateRequest } from '../src/apply/classes/rule-requests.js';
import { liveRuleFromHint } from '../src/live/normalize-hint.js';
import { Interner } from '../src/model/interner.js';
import type { LiveRule } from '../src/model/rule.js';
import { buildPlan } from '../src/plan/plan.js';
import { loadPolicyTexts } from '../src/policy/validate.js';
import { ruleKind, type KindName } from '../src/rules/registry.js';
import type { BenchEmulator } from './lib/emulator-process.js';
import { benchNoopPlan } from './lib/noop-plan.js';

const CLIENT = 10042;
const RULES = 1000;
const RUNS = 7;

interface Sample {
  /** Policy text of RULES rules, and the listing's records of the same rules. */
  readonly policy: string;
  readonly hints: readonly ApiHint[];
}

/**
 * RULES rules made of the kind's first example, each on its own path, and
 * the listing of the same rules: what a create of each sends, as the service
 * lists it (points flat, reaction keys it does not hold echoed as 0, the
 * read-only fields of the controls).
 */
function sample(kind: KindName, listed: Readonly<Record<string, unknown>> = {}): Sample {
  const rules = Array.from({ length: RULES }, (_, i) => ({ ...ruleKind(kind).examples[0], name: `r${i}`, type: kind, when: [{ point: ['path', 0], equal: `p${i}` }] }));
  const policy = stringify({ version: 1, client: CLIENT, application: 7, rules }, { aliasDuplicateObjects: false });
  const desired = loadPolicyTexts([{ file: 'policies/bench.yaml', text: policy }]).desired?.rules ?? [];
  const hints = desired.map((rule, i): ApiHint => {
    const { clientid, type, point, comment, action: _sent, validated: _v, variativity_disabled: _d, ...fields } = hintCreateRequest(rule, 'rampart', rule.source.name);
    return { ...fields, ...listed, id: i + 1, clientid, type, action: rule.conditions.map((c) => ({ point: [...c.point], type: c.type, value: c.value ?? '' })), point: (point ?? []).flat(), comment };
  });
  return { policy, hints };
}

const vpatches = (): Sample => sample('vpatch');
const controls = (): Sample => sample('brute', {
  attack_type: 'brute', mitigation: 'brute', advanced_conditions: [],
  reaction: { block_by_session: 0, block_by_ip: 3600, graylist_by_ip: 0 },
});

/** One no-op plan: the milliseconds it took. */
function noopPlan(sample: Sample): number {
  const started = performance.now();
  const loaded = loadPolicyTexts([{ file: 'policies/bench.yaml', text: sample.policy }]);
  if (!loaded.desired) throw new Error(`the bench policy is invalid: ${loaded.diagnostics[0]?.message ?? ''}`);
  const intern = new Interner();
  const rules = sample.hints.map((hint) => liveRuleFromHint(hint, intern) as LiveRule);
  const plan = buildPlan(loaded.desired, { clients: [CLIENT], rules, ipEntries: [] });
  if (plan.changes.length > 0) throw new Error(`the bench plan is not a no-op: ${plan.changes.length} changes`);
  return performance.now() - started;
}

/** Cold plans per kind, fresh processes each (three with their floors): one in a `--quick` run, which stays under a minute. */
const RUNS_END_TO_END = { full: 3, quick: 1 } as const;

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export interface KindFigures {
  readonly rules: number;
  /** Medians of the in-process runs, milliseconds. */
  readonly vpatchMs: number;
  readonly controlsMs: number;
  /** controls / vpatch. */
  readonly ratio: number;
  /** Medians of the cold no-op plans in a fresh process against the emulator, milliseconds. */
  readonly vpatchPlanMs: number;
  readonly controlsPlanMs: number;
  readonly planRatio: number;
  /** Cold plans per kind the medians are of. */
  readonly planRuns: number;
}

/** The same no-op plan as the scale rows, over `RULES` rules of one kind; the cold plan's milliseconds, median of a few. */
async function endToEnd(emulator: BenchEmulator, policies: string, ruleKinds: 'vpatch' | 'abuse-control', count: number): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < count; run++) runs.push((await benchNoopPlan(emulator, { rules: RULES, ipValues: 0, ruleKinds }, policies)).cold.totalMs);
  return median(runs);
}

export async function benchKinds(emulator: BenchEmulator, policies: string, mode: 'full' | 'quick' = 'full'): Promise<KindFigures> {
  const inProcess = benchKindsInProcess();
  const vpatchPlanMs = await endToEnd(emulator, policies, 'vpatch', RUNS_END_TO_END[mode]);
  const controlsPlanMs = await endToEnd(emulator, policies, 'abuse-control', RUNS_END_TO_END[mode]);
  return { ...inProcess, vpatchPlanMs, controlsPlanMs, planRatio: Math.round((controlsPlanMs / vpatchPlanMs) * 100) / 100, planRuns: RUNS_END_TO_END[mode] };
}

function benchKindsInProcess(): Pick<KindFigures, 'rules' | 'vpatchMs' | 'controlsMs' | 'ratio'> {
  const samples = { vpatch: vpatches(), controls: controls() };
  // One warm-up each: the first run pays for compiling the code paths.
  noopPlan(samples.vpatch);
  noopPlan(samples.controls);
  const times = { vpatch: [] as number[], controls: [] as number[] };
  // Interleaved, so a burst of load on the shared machine hits both alike.
  for (let run = 0; run < RUNS; run++) {
    times.vpatch.push(noopPlan(samples.vpatch));
    times.controls.push(noopPlan(samples.controls));
  }
  const vpatchMs = median(times.vpatch);
  const controlsMs = median(times.controls);
  return { rules: RULES, vpatchMs: Math.round(vpatchMs), controlsMs: Math.round(controlsMs), ratio: Math.round((controlsMs / vpatchMs) * 100) / 100 };
}
