import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/plan.js';
import { checkSafety } from '../../../src/plan/safety.js';
import {
  desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields,
} from './builders.js';

/** `owned` owned rules of which the first `keep` are still declared. */
function planWith(owned: number, keep: number, options: Parameters<typeof buildPlan>[2] = {}) {
  const rules = Array.from({ length: owned }, (_, i) => ruleFields('vpatch', i + 1));
  return buildPlan(
    desiredState(rules.slice(0, keep).map((r, i) => desiredRule(r, `r${i}`, i + 1))),
    liveState(rules.map((r, i) => liveRule(r, 100 + i))),
    options,
  );
}

describe('safety guard', () => {
  it.each([
    // owned, declared, ok
    [20, 14, true], // 6/20 = 30%: at the limit
    [20, 13, false], // 7/20 = 35%
    [10, 6, false], // 4/10, just at minOwned
    [9, 0, true], // below minOwned: everything may go
    [0, 0, true],
  ])('owned %i, still declared %i: ok=%s', (owned, keep, ok) => {
    const plan = planWith(owned, keep);
    const verdict = checkSafety(plan);
    expect(verdict.ok).toBe(ok);
    expect(plan.safety.ok).toBe(ok);
    expect(verdict.deleteCount).toBe(owned - keep);
    expect(verdict.ownedCount).toBe(owned);
    expect(verdict.threshold).toBe(0.3);
    expect(verdict.share).toBe(owned === 0 ? 0 : (owned - keep) / owned);
  });

  it('says what to do when it refuses', () => {
    const verdict = checkSafety(planWith(20, 5));
    expect(verdict.ok).toBe(false);
    expect(verdict.forced).toBe(false);
    expect(verdict.message).toBe(
      'Refusing: the plan deletes 15 of the 20 objects owned by "rampart" (75%), more than the 30% limit. ' +
      'Check the policy directory and the --owner name; if these deletions are intended, re-run with --force.',
    );
  });

  it('lets --force through and says so', () => {
    const verdict = checkSafety(planWith(20, 0), { force: true });
    expect(verdict).toMatchObject({ ok: true, forced: true, deleteCount: 20, share: 1 });
    expect(verdict.message).toMatch(/^Forced: .*--force\.$/);
  });

  it('takes custom limits', () => {
    const plan = planWith(20, 14);
    expect(checkSafety(plan, { maxDeleteShare: 0.25 }).ok).toBe(false);
    expect(checkSafety(plan, { minOwned: 50 }).ok).toBe(true);
    expect(checkSafety(plan, { minOwned: 50 }).message).toContain('applies from 50 owned objects');
    expect(buildPlan(desiredState(), liveState(), { maxDeleteShare: 0.1 }).safety.threshold).toBe(0.1);
  });

  it('does not count replacements, updates or duplicates', () => {
    const rules = Array.from({ length: 10 }, (_, i) => ruleFields('regex', i + 1));
    const plan = buildPlan(
      desiredState(rules.map((r, i) => desiredRule({ ...r, comment: 'new' }, `r${i}`))),
      liveState([...rules.map((r, i) => liveRule(r, i + 1)), ...rules.map((r, i) => liveRule(r, i + 100))]),
      { ruleUpdates: 'replace' },
    );
    expect(plan.summary).toMatchObject({ replace: 10, delete: 10 });
    expect(checkSafety(plan)).toMatchObject({ ok: true, deleteCount: 0, ownedCount: 20 });
    const updating = buildPlan(
      desiredState(rules.map((r, i) => desiredRule({ ...r, comment: 'new' }, `r${i}`))),
      liveState([...rules.map((r, i) => liveRule(r, i + 1)), ...rules.map((r, i) => liveRule(r, i + 100))]),
    );
    expect(updating.summary).toMatchObject({ update: 10, delete: 10 });
    expect(checkSafety(plan)).toMatchObject({ ok: true, deleteCount: 0, ownedCount: 20 });
  });

  it('counts every value of a deleted grouped object', () => {
    const live = liveObject(1, ['AA', 'BB', 'CC', 'DD', 'EE', 'FF', 'GG', 'HH', 'II', 'JJ', 'KK'], { ruleType: 'country' });
    const verdict = checkSafety(buildPlan(desiredState(), liveState([], live)));
    expect(verdict).toMatchObject({ ok: false, deleteCount: 11, ownedCount: 11 });
  });
});

describe('the impact guard (--impact-limit)', () => {
  const summary = { windowSeconds: 604_800, hitsRead: 0, listings: 1, notEvaluable: 0 };
  const withImpact = (impact: Partial<NonNullable<ReturnType<typeof planWith>['impact']>>) => ({ ...planWith(3, 3), impact: { ...summary, complete: true, ...impact } });

  it('fails closed: an incomplete impact with a limit is unsafe, as one past the limit is', () => {
    const incomplete = checkSafety(withImpact({ complete: false, reason: 'the hits listing failed for client 10042: 503', limit: 100, overLimit: 0 }));
    expect(incomplete.ok).toBe(false);
    expect(incomplete.message).toBe('Refusing: the impact is incomplete (the hits listing failed for client 10042: 503), so no one can tell whether a change '
      + 'newly blocks, or stops blocking, more than 100 requests (--impact-limit). Read the plan\'s impact; if these effects are intended, re-run with --force.');
    expect(checkSafety(withImpact({ complete: true, limit: 100, overLimit: 1 })).ok).toBe(false);
  });

  it('passes a complete impact within its limit, and an incomplete one when no limit was asked', () => {
    expect(checkSafety(withImpact({ complete: true, limit: 100, overLimit: 0 })).ok).toBe(true);
    expect(checkSafety(withImpact({ complete: false, reason: 'a listing failed' })).ok).toBe(true);
  });

  it('lets --force through an incomplete impact and says so', () => {
    const verdict = checkSafety(withImpact({ complete: false, limit: 100, overLimit: 0 }), { force: true });
    expect(verdict).toMatchObject({ ok: true, forced: true });
    expect(verdict.message).toMatch(/Forced: the impact is incomplete .* applying because of --force\.$/);
  });
});
