/** The bench remembers: a figure beside its baseline, flagged past its tolerance (memory 10%, × floor 15%, calls exactly). */
import { describe, expect, it } from 'vitest';
import { compare, comparisonRows, machineClass, updated, type BaselineEntry } from '../../../bench/lib/baseline.js';
import { figuresOf } from '../../../bench/lib/figures.js';

const base: BaselineEntry = {
  machine: 'AMD EPYC, 2 cores', date: '2026-12-06',
  figures: { 'daemon idle RSS': 90, 'plan --impact: × floor': 1.2, 'no-op plan 10k + 10k: API calls': 52 },
};

describe('the bench against its baseline', () => {
  it('flags a deliberate 20% memory regression, and not 5%', () => {
    const [regressed] = compare([{ name: 'daemon idle RSS', value: 108, kind: 'memory' }], base);
    expect(regressed).toMatchObject({ baseline: 90, regression: true });
    expect(regressed?.ratio).toBeCloseTo(1.2);
    expect(compare([{ name: 'daemon idle RSS', value: 94.5, kind: 'memory' }], base)[0]?.regression).toBe(false);
  });

  it('judges a time against its floor at 15%, and calls exactly', () => {
    expect(compare([{ name: 'plan --impact: × floor', value: 1.37, kind: 'time-ratio' }], base)[0]?.regression).toBe(false);
    expect(compare([{ name: 'plan --impact: × floor', value: 1.4, kind: 'time-ratio' }], base)[0]?.regression).toBe(true);
    expect(compare([{ name: 'no-op plan 10k + 10k: API calls', value: 53, kind: 'calls' }], base)[0]?.regression).toBe(true);
    // Better is never a regression.
    expect(compare([{ name: 'daemon idle RSS', value: 60, kind: 'memory' }], base)[0]?.regression).toBe(false);
  });

  it('says "new" for a figure the baseline does not hold, and prints each beside its baseline', () => {
    const rows = comparisonRows(compare([
      { name: 'daemon idle RSS', value: 108, kind: 'memory' },
      { name: 'a new figure', value: 3, kind: 'memory' },
    ], base));
    expect(rows).toEqual([
      ['daemon idle RSS', '108 MB', '90 MB', '1.20', 'REGRESSION (> +10%)'],
      ['a new figure', '3 MB', '(none)', '', 'new'],
    ]);
  });

  it('keeps one baseline per machine class and mode; an update replaces only its own', () => {
    const klass = machineClass({ cpu: 'AMD EPYC', cores: 2, platform: 'linux x64', node: 'v20.20.2' });
    expect(klass).toBe('linux x64, 2 cores, AMD EPYC, Node 20');
    // Another Node.js line is another class: V8 alone moves the figures between lines.
    expect(machineClass({ cpu: 'AMD EPYC', cores: 2, platform: 'linux x64', node: 'v24.22.3' })).not.toBe(klass);
    expect(machineClass({ cpu: 'AMD EPYC', cores: 2, platform: 'linux x64', node: 'v20.1.0' })).toBe(klass);
    const next = updated({ [klass]: { quick: base, full: base } }, klass, 'quick', { ...base, date: '2026-12-07' });
    expect(next[klass]?.quick?.date).toBe('2026-12-07');
    expect(next[klass]?.full?.date).toBe('2026-12-06');
  });

  it('takes memory, × floor and calls from a run\'s results', () => {
    const figures = figuresOf({
      noopPlans: [{ rules: 10_000, ipValues: 10_000, latencyMs: 0, cold: { totalMs: 1200 }, floor: { totalMs: 600 }, maxRssMb: 190, calls: 52 } as never],
      applies: [],
      daemon: { idleRssMb: 93, idleRssManifestMb: 70 } as never,
    });
    expect(figures).toEqual([
      { name: 'no-op plan 10k + 10k: × floor', value: 2, kind: 'time-ratio' },
      { name: 'no-op plan 10k + 10k: peak RSS', value: 190, kind: 'memory' },
      { name: 'no-op plan 10k + 10k: API calls', value: 52, kind: 'calls' },
      { name: 'daemon idle RSS', value: 93, kind: 'memory' },
      { name: 'daemon idle RSS, manifests\' options', value: 70, kind: 'memory' },
    ]);
  });
});
