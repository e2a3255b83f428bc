/**
 * `--target`: a plan narrowed to some declarations keeps what they write and
 * the deletes they need (a rule a create replaces), leaves out the rest of the
 * plan, and never deletes what no targeted declaration takes over.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/plan.js';
import { targetPlan } from '../../../src/plan/target.js';
import { desiredIp, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields, withFields } from './builders.js';

const OTHER = 'policies/other.yaml';

describe('a targeted plan', () => {
  it('keeps the changes of the targeted file and the replaced rule its create needs; deletes nothing else', () => {
    const kept = desiredRule(ruleFields('vpatch', 7, '-new'), 'patch', 3);
    const elsewhere = desiredRule(ruleFields('regex', 7), 'scanner', 4, OTHER);
    const desired = desiredState([kept, elsewhere], [desiredIp('203.0.113.9/32', {}, 20, 'ip_lists.deny[0]'), { ...desiredIp('198.51.100.1/32'), source: { file: OTHER, line: 9, col: 5, name: 'ip_lists.deny[0]' } }]);
    // Live: a rule no policy declares any more (a delete the target must leave), and an IP value likewise.
    const live = liveState([liveRule(ruleFields('mode', 7), 41)], liveObject(90, ['192.0.2.1/32']));
    const full = buildPlan(desired, live, { minOwned: 100 });
    expect(full.changes.map((c) => c.action).sort()).toEqual(['create', 'create', 'create', 'create', 'delete', 'delete']);

    const { plan, leftOut } = targetPlan(full, { files: ['policies/shop.yaml'], names: [] });
    expect(plan.changes.map((c) => `${c.action} ${c.kind}`)).toEqual(['create rule', 'create ip']);
    expect(leftOut).toBe(4);
    expect(plan.target).toEqual({ files: ['policies/shop.yaml'], names: [], leftOut: 4 });
    expect(plan.summary).toMatchObject({ create: 2, delete: 0 });
  });

  it('by a rule\'s name, keeps its replacement and the delete of the rule it replaces, not the rest', () => {
    const old = liveRule(withFields(ruleFields('vpatch', 7), { attack: 'any' }), 50);
    const declared = desiredRule({ ...ruleFields('vpatch', 7), comment: 'a new comment' }, 'patch');
    const full = buildPlan(desiredState([declared, desiredRule(ruleFields('regex', 7), 'scanner', 2)]), liveState([old]), { ruleUpdates: 'replace', minOwned: 100 });
    const { plan } = targetPlan(full, { files: [], names: ['patch'] });
    expect(plan.changes.map((c) => `${c.action}`)).toEqual(['create', 'delete']);
    expect(plan.changes.find((c) => c.action === 'delete')).toMatchObject({ rule: { id: 50 }, reason: 'replaced' });
  });
});
