/**
 * The status page's plan section tells the truth: an applied plan is not
 * "pending", a held one is, and when the latest cycle never got to a plan (the
 * API down, the files invalid) the page says so instead of showing an older
 * plan as current.
 */
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '../../../src/daemon/cycle-record.js';
import type { DaemonState } from '../../../src/daemon/state.js';
import { renderMain } from '../../../src/daemon/status-page/render.js';
import { relativeTime } from '../../../src/daemon/status-page/time.js';
import { planDocument } from '../../helpers/plan-document.js';

const PLAN = planDocument({ clients: [1], rules: [], ipEntries: [] }, { clients: [1], rules: [], ipEntries: [] });

const cycle = (id: string, over: Partial<CycleRecord>): CycleRecord => ({
  id, startedAt: '2026-11-28T06:00:00Z', finishedAt: '2026-11-28T06:00:01Z', result: 'success', status: 'applied', ...over,
});

function page(over: Partial<DaemonState>): string {
  const state: DaemonState = {
    alive: true, running: false, everSucceeded: true, lastOutcome: undefined, lastCycleId: undefined, lastSuccessAt: 1, lastPlan: PLAN, ...over,
  };
  return renderMain({ state, api: [], admin: false, now: Date.now() }).text;
}

const title = (text: string) => /data-testid="plan-title">([^<]*)</.exec(text)?.[1];

describe('times on the status page', () => {
  it('say how long ago beside the time', () => {
    expect(relativeTime(1_000_000, 1_000_000)).toBe('just now');
    expect(relativeTime(0, 45_000)).toBe('45 s ago');
    expect(relativeTime(0, 3 * 60_000 + 5_000)).toBe('3 min ago');
    expect(relativeTime(0, 26 * 3_600_000)).toBe('1 d ago');
    expect(relativeTime(10_000, 0)).toBe('in 10 s');
  });
});

describe('the status page\'s plan', () => {
  it('an applied plan is the last plan, not a pending one', () => {
    const applied = cycle('c1', {});
    expect(title(page({ lastCycle: applied, lastPlanCycle: applied }))).toBe('Last plan: applied');
  });

  it('a plan the pause holds, or a guard refused, is pending, and says why', () => {
    const paused = cycle('c2', { result: 'paused', status: 'paused' });
    expect(title(page({ lastCycle: paused, lastPlanCycle: paused }))).toBe('Pending plan: held by the pause');
    const refused = cycle('c3', { result: 'unsafe', status: 'refused' });
    expect(title(page({ lastCycle: refused, lastPlanCycle: refused }))).toBe('Pending plan: refused by a safety guard');
  });

  it('when the latest cycle got no plan (the API down), the page says the plan shown is an older cycle\'s', () => {
    const made = cycle('c1', {});
    const failed = cycle('c4', { result: 'failed', status: 'failed', finishedAt: '2026-11-28T06:05:00Z', error: 'POST /v1/objects/hint: 503 after 5 attempts' });
    const text = page({ lastCycle: failed, lastPlanCycle: made });
    expect(text).toContain('data-testid="plan-stale"');
    const plain = text.replace(/<[^>]+>/g, '');
    expect(plain).toMatch(/The latest cycle \(2026-11-28 06:05:00 UTC \((\d+ \w+ ago|in \d+ \w+|just now)\)\) did not get to a plan \(failed\): POST \/v1\/objects\/hint: 503 after 5 attempts\. The plan below is from the cycle at 2026-11-28 06:00:01 UTC/);
  });
});
