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
import { StatusHistory } from '../../../src/daemon/status-page/history.js';
import type { CycleOutcome } from '../../../src/reconcile/outcome.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { showPlan } from '../../../src/reconcile/outcome.js';

const PLAN = showPlan(buildPlan({ clients: [1], rules: [], ipEntries: [] }, { clients: [1], rules: [], ipEntries: [] }));

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

describe('the status page tells the truth about a bad cycle and the past', () => {
  it('lists every error of invalid policies, and says how many more there are', () => {
    const list = Array.from({ length: 3 }, (_, i) => ({ file: `policies/p${i}.yaml`, line: i + 1, col: 3, code: 'schema', message: `must be <b>${i}</b>` }));
    const invalid = cycle('c5', { result: 'invalid', status: 'invalid', error: '250 policy error(s); nothing is applied', problems: { count: 250, list } });
    const text = page({ lastCycle: invalid, everSucceeded: false });
    const problems = /data-testid="problems"[\s\S]*?<\/details>/.exec(text)?.[0] ?? '';
    expect(problems).toContain('250 policy errors');
    for (const p of list) expect(problems).toContain(`<code>${p.file}:${p.line}:3</code>`);
    // What a user wrote stays text.
    expect(problems).toContain('must be &#60;b&#62;1&#60;/b&#62;');
    expect(problems).toContain('and 247 more');
  });

  it('the chart has axes and marks every kind of cycle, not only those that wrote', () => {
    const history = new StatusHistory();
    const at = Date.parse('2026-11-28T06:00:00Z');
    const outcomes: CycleOutcome[] = [
      { result: 'success', changes: { create: 3 }, writes: [] },
      { result: 'no-op' }, { result: 'paused' }, { result: 'failed', error: new Error('503') }, { result: 'invalid' },
    ];
    outcomes.forEach((outcome, i) => history.record(`c${i}`, outcome, at + i * 60_000, at + i * 60_000 + 500));
    const text = page({ history });
    const chart = /<svg[\s\S]*?<\/svg>/.exec(text)?.[0] ?? '';
    expect([...chart.matchAll(/data-result="([a-z-]+)"/g)].map((m) => m[1])).toEqual(['success', 'no-op', 'paused', 'failed', 'invalid']);
    expect(chart).toMatch(/data-testid="chart-max">3</);
    expect(chart).toMatch(/data-testid="chart-from">06:00</);
    expect(chart).toMatch(/data-testid="chart-to">06:04 UTC</);
    expect(text).toMatch(/class="legend"[\s\S]*nothing to do[\s\S]*paused[\s\S]*failed[\s\S]*invalid policies/);
  });

  it('names the values of an IP write beside its declaration', () => {
    const history = new StatusHistory();
    const values = Array.from({ length: 10 }, (_, i) => `203.0.113.${i}/32`);
    history.record('c1', {
      result: 'success', changes: { create: 10 },
      writes: [{ action: 'create', kind: 'ip', client: 1, application: 7, name: 'ip_lists.deny[0]', values, cause: 'intent', status: 'applied' }],
    }, 0, 1);
    const cell = /data-testid="write-values">([^<]*)</.exec(page({ history }))?.[1];
    expect(cell).toBe('203.0.113.0/32, 203.0.113.1/32, 203.0.113.2/32, 203.0.113.3/32, 203.0.113.4/32, 203.0.113.5/32, 203.0.113.6/32, 203.0.113.7/32 and 2 more');
  });
});
