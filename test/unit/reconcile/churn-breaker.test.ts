import { describe, expect, it } from 'vitest';
import type { ChangeResult } from '../../../src/audit/change-result.js';
import { buildPlan } from '../../../src/plan/plan.js';
import type { Plan } from '../../../src/plan/model.js';
import { holdChurn, NO_CHURN, recordCreates, type ChurnHistory } from '../../../src/reconcile/churn-breaker.js';
import { desiredIp, desiredRule, desiredState, liveRule, liveState, ruleFields, withFields } from '../plan/builders.js';

const want = desiredRule(ruleFields('regex'), 'curltool-scanner', 14);
/** The copy the last cycle made, which the service stored so that it no longer matches anything declared. */
const lost = liveRule(withFields(ruleFields('regex'), { attack: 'sqli' }), 51);

function applied(plan: Plan, ids: Record<number, number> = {}): ChangeResult[] {
  return plan.changes.map((change, index) => ({ index, change, status: 'applied', ...(ids[index] !== undefined ? { id: ids[index] } : {}) }));
}

/** The breaker across cycles, its history threaded from one to the next as the daemon's memory does. */
class Cycles {
  private history: ChurnHistory = NO_CHURN;

  restrict(plan: Plan) {
    const held = holdChurn(this.history, plan);
    this.history = held.history;
    return held;
  }

  recordApplied(results: readonly ChangeResult[]): void {
    this.history = recordCreates(this.history, results);
  }
}

describe('churn breaker', () => {
  it('lets a create and one re-creation through, then holds the create along with the delete of its last copy', () => {
    const breaker = new Cycles();
    const first = breaker.restrict(buildPlan(desiredState([want]), liveState()));
    expect(first.held).toEqual([]);
    expect(first.plan.changes.map((c) => c.action)).toEqual(['create']);
    breaker.recordApplied(applied(first.plan, { 0: 50 }));

    // Once is drift (someone deleted it in the console): made again.
    const second = breaker.restrict(buildPlan(desiredState([want]), liveState()));
    expect(second.held).toEqual([]);
    expect(second.plan.changes.map((c) => c.action)).toEqual(['create']);
    breaker.recordApplied(applied(second.plan, { 0: 51 }));

    const third = breaker.restrict(buildPlan(desiredState([want]), liveState([lost])));
    expect(third.newlyHeld).toEqual([{ kind: 'rule', client: 10042, file: 'policies/shop.yaml', line: 14, name: 'curltool-scanner', cycles: 3 }]);
    expect(third.plan.changes).toEqual([]);
    expect(third.plan.summary).toMatchObject({ create: 0, delete: 0 });
    breaker.recordApplied([]);

    const fourth = breaker.restrict(buildPlan(desiredState([want]), liveState([lost])));
    expect(fourth.newlyHeld).toEqual([]);
    expect(fourth.held).toEqual([expect.objectContaining({ name: 'curltool-scanner', cycles: 4 })]);
    expect(fourth.plan.changes).toEqual([]);
  });

  it('releases the hold when the declaration changes, and never holds creates that are not repeated', () => {
    const breaker = new Cycles();
    for (const id of [50, 51]) {
      const cycle = breaker.restrict(buildPlan(desiredState([want]), liveState()));
      breaker.recordApplied(applied(cycle.plan, { 0: id }));
    }
    expect(breaker.restrict(buildPlan(desiredState([want]), liveState([lost]))).held).toHaveLength(1);
    const edited = desiredRule(withFields(ruleFields('regex'), { attack: 'xss' }), 'curltool-scanner', 14);
    const next = breaker.restrict(buildPlan(desiredState([edited]), liveState([lost])));
    expect(next.held).toEqual([]);
    expect(next.plan.changes.map((c) => c.action)).toEqual(['create', 'delete']);
  });

  it('only an unbroken streak counts: a re-create after a quiet cycle is not churn', () => {
    const breaker = new Cycles();
    const ip = desiredIp('203.0.113.9/32');
    for (let cycle = 0; cycle < 2; cycle++) {
      const planned = breaker.restrict(buildPlan(desiredState([], [ip]), liveState()));
      breaker.recordApplied(applied(planned.plan));
    }
    // The next cycle finds the account in step: nothing to create.
    expect(breaker.restrict(buildPlan(desiredState(), liveState())).plan.changes).toEqual([]);
    breaker.recordApplied([]);
    const again = breaker.restrict(buildPlan(desiredState([], [ip]), liveState()));
    expect(again.held).toEqual([]);
    expect(again.plan.changes).toHaveLength(1);
  });
});

describe('the churn history', () => {
  it('is a value: a cycle returns the next history and leaves the one it was given as it was', () => {
    const plan = () => buildPlan(desiredState([want]), liveState());
    let history = NO_CHURN;
    for (const id of [50, 51]) history = recordCreates(holdChurn(history, plan()).history, applied(plan(), { 0: id }));
    const before = JSON.stringify([...history.created.keys()]);
    const held = holdChurn(history, buildPlan(desiredState([want]), liveState([lost])));
    expect(held.newlyHeld).toHaveLength(1);
    // The same history given again holds the same object anew: nothing was changed in it.
    expect(holdChurn(history, buildPlan(desiredState([want]), liveState([lost]))).newlyHeld).toHaveLength(1);
    expect(JSON.stringify([...history.created.keys()])).toBe(before);
    expect(history.held.size).toBe(0);
  });
});
