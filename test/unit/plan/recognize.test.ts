import { describe, expect, it } from 'vitest';
import { ipFingerprint } from '../../../src/model/ip-fingerprint.js';
import { ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import type { Condition } from '../../../src/model/rule.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { desiredIp, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields } from './builders.js';

const declared = desiredRule(ruleFields('vpatch'), 'block-admin', 8);
/** The service stored a condition value differently: no documented rule says so. */
const method = (value: string): Condition => ({ point: ['method'], type: 'equal', value });
const withMethod = (value: string) => ({ ...declared, conditions: [...declared.conditions, method(value)] });

describe('owned objects recognized by the fingerprint in their mark', () => {
  it('a rule stored differently but marked with its declaration is unchanged, with a note naming the rewrite', () => {
    const want = desiredRule(withMethod('get'), 'block-admin', 8);
    const stored = { ...liveRule(withMethod('GET'), 41), fingerprint: ruleFingerprint(want) };
    const plan = buildPlan(desiredState([want]), liveState([stored]));
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
    expect(plan.notes).toEqual([expect.objectContaining({
      level: 'info', id: 41, line: 8, name: 'block-admin',
      message: expect.stringContaining('when: [method] equal "get" → [method] equal "GET"'),
    })]);
  });

  it('a changed declaration no longer matches the mark: the change is planned', () => {
    const before = desiredRule(withMethod('get'), 'block-admin', 8);
    const stored = { ...liveRule(withMethod('GET'), 41), fingerprint: ruleFingerprint(before) };
    const after = desiredRule(withMethod('head'), 'block-admin', 8);
    const plan = buildPlan(desiredState([after]), liveState([stored]));
    expect(plan.changes.map((c) => c.action)).toEqual(['create', 'delete']);
    expect(plan.notes).toEqual([]);
  });

  it('a mark without a fingerprint (written before they existed) still compares by content', () => {
    const unchanged = buildPlan(desiredState([declared]), liveState([liveRule(ruleFields('vpatch'), 41)]));
    expect(unchanged.changes).toEqual([]);
    const rewritten = buildPlan(desiredState([withMethod('get')]), liveState([liveRule(withMethod('GET'), 41)]));
    expect(rewritten.changes.map((c) => c.action)).toEqual(['create', 'delete']);
  });

  it('another owner\'s fingerprint is never taken for ours', () => {
    const want = desiredRule(withMethod('get'), 'block-admin', 8);
    const theirs = { ...liveRule(withMethod('GET'), 41, 'team-b'), fingerprint: ruleFingerprint(want) };
    const plan = buildPlan(desiredState([want]), liveState([theirs]));
    expect(plan.changes.map((c) => c.action)).toEqual(['create']);
  });

  it('an IP object stored with another expiry but marked with its declaration is unchanged', () => {
    const want = desiredIp('203.0.113.9/32', { expiresAt: 1_927_000_030, reason: 'scanner' });
    const stored = liveObject(9, ['203.0.113.9/32'], { expiresAt: 1_927_000_020, reason: 'scanner' })
      .map((e) => ({ ...e, fingerprint: ipFingerprint(want) }));
    const plan = buildPlan(desiredState([], [want]), liveState([], stored));
    expect(plan.changes).toEqual([]);
    expect(plan.notes.map((n) => n.message)).toEqual([expect.stringContaining('203.0.113.9/32: expires: 2031-01-24T05:47:10Z → 2031-01-24T05:47:00Z')]);
  });

  it('a multi-value IP object takes its declared attributes and keeps its values', () => {
    const want = [desiredIp('KP', { reason: 'no business' }), desiredIp('RU', { reason: 'no business' })];
    const stored = liveObject(9, ['KP', 'RU'], { reason: 'No business' }).map((e) => ({ ...e, fingerprint: ipFingerprint(want[0]!) }));
    const plan = buildPlan(desiredState([], want), liveState([], stored));
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(2);
  });
});
