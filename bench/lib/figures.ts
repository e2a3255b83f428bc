/**
 * The figures of a bench run the baseline remembers (baseline.ts): memory,
 * times against their floor, and API calls. Named so that a row of the
 * tables and its figure are easy to match.
 */
import type { Figure } from './baseline.js';
import type { ApplyFigures } from './apply-bench.js';
import type { DaemonFigures } from './daemon-bench.js';
import type { DaemonScaleFigures } from './daemon-scale.js';
import type { NoopPlanFigures } from './noop-plan.js';
import type { BenchFigures as DiffFigures } from '../diff.js';
import type { ImpactFigures } from '../impact.js';
import type { ValidateFigures } from '../validate.js';

export interface RunFigures {
  readonly validate?: ValidateFigures;
  readonly diff?: DiffFigures;
  readonly noopPlans: readonly NoopPlanFigures[];
  readonly applies: readonly ApplyFigures[];
  readonly daemon?: DaemonFigures;
  readonly daemonAtScale?: DaemonScaleFigures;
  readonly impact?: ImpactFigures;
}

const k = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

export function figuresOf(run: RunFigures): Figure[] {
  const out: Figure[] = [];
  const add = (name: string, value: number | undefined, kind: Figure['kind']) => {
    if (value !== undefined && Number.isFinite(value)) out.push({ name, value, kind });
  };
  if (run.validate) add('validate 1,000 files: heap held', run.validate.heldMb, 'memory');
  if (run.diff) {
    // As the goals' row counts it: buildPlan (the diff within it) and the document, checksum and digests.
    add('diff + plan 100k: × floor', (run.diff.planMs + run.diff.checksumMs) / run.diff.floorMs, 'time-ratio');
    add('diff + plan 100k: peak RSS', run.diff.maxRssMb, 'memory');
  }
  for (const p of run.noopPlans) {
    const name = `no-op plan ${k(p.rules)} + ${k(p.ipValues)}${p.latencyMs ? ` @${p.latencyMs} ms` : ''}${p.ipApi === 'groups' ? ' on groups' : ''}`;
    add(`${name}: × floor`, p.cold.totalMs / p.floor.totalMs, 'time-ratio');
    add(`${name}: peak RSS`, p.maxRssMb, 'memory');
    add(`${name}: API calls`, p.calls, 'calls');
  }
  for (const a of run.applies) add(`apply 1k + 1k ${a.kind}: API calls`, a.calls, 'calls');
  if (run.daemon) {
    add('daemon idle RSS', run.daemon.idleRssMb, 'memory');
    add('daemon idle RSS, manifests\' options', run.daemon.idleRssManifestMb, 'memory');
  }
  if (run.daemonAtScale) add('daemon steady RSS 10k + 50k, manifests\' options', run.daemonAtScale.rssAfterCyclesMb, 'memory');
  if (run.impact) {
    const impact = `plan --impact ${k(run.impact.hits)} hits`;
    add(`${impact}: × floor`, run.impact.ratio, 'time-ratio');
    // The impact process's own peak, not its excess over the plan without it: a plan that needs less
    // (the validator's split, issue 49) made the same impact look 6 MB worse as a difference.
    add(`${impact}: peak RSS`, run.impact.impactMaxRssMb, 'memory');
    add(`${impact}: API calls`, run.impact.listings, 'calls');
  }
  return out;
}
