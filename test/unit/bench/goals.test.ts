import { describe, expect, it } from 'vitest';
import { goalRows } from '../../../bench/lib/goals.js';
import type { NoopPlanFigures } from '../../../bench/lib/noop-plan.js';

/** A cold no-op plan at 10k + 50k: its time against its floor's, the rest of its figures left out. */
const plan = (latencyMs: number, coldMs: number, floorMs: number): NoopPlanFigures => ({
  rules: 10_000, ipValues: 50_000, latencyMs, ipApi: 'v4', ratios: [coldMs / floorMs], maxRssMb: 140,
  cold: { totalMs: coldMs }, floor: { totalMs: floorMs, maxRssMb: 140 }, validatingFloor: { totalMs: floorMs },
} as never);

describe('goalRows', () => {
  it('judges the cold no-op plan against issue 49\'s ratio for its latency: 1.4× with none, 1.2× at 50 ms', () => {
    const rows = goalRows({ noopPlans: [plan(0, 1_300, 1_000), plan(50, 1_300, 1_000)], applies: [] });
    const ratioRows = rows.filter((row) => row.goal.startsWith('cold no-op plan'));
    expect(ratioRows.map(({ goal, met }) => ({ goal, met }))).toEqual([
      { goal: 'cold no-op plan, 10k + 50k, 0 ms per call: ≤ 1.4× floor', met: true },
      { goal: 'cold no-op plan, 10k + 50k, 50 ms per call: ≤ 1.2× floor', met: false },
    ]);
  });
});
