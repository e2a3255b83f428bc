import { describe, expect, it } from 'vitest';

import { diffRules } from '../../../src/plan/diff-rules.js';
import type { PlanChange } from '../../../src/plan/types.js';
import { desiredRule, desiredState, liveRule, liveState, OWNER, ruleFields, SAMPLE_KINDS, withFields } from './builders.js';
import { planDocument } from '../../helpers/plan-document.js';

const brief = (c: PlanChange) =>
  c.kind === 'rule' && c.action === 'delete'
    ? { action: c.action, id: c.id, reason: c.reason }
    : c.kind === 'rule' && c.action === 'create'
      ? { action: c.action, name: c.name, replaces: c.replaces }
      : c.kind === 'rule'
        ? { action: c.action, id: c.id, fields: c.fields }
        : { action: c.action };

describe.each(SAMPLE_KINDS)('rules of kind %s', (type) => {
  const fields = ruleFields(type);
  const commented = { ...fields, comment: 'flags a known scanner' };

  it('creates a missing rule with its source and application', () => {
    const plan = planDocument(desiredState([desiredRule(fields, 'block-admin', 12)]), liveState());
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({
      action: 'create', kind: 'rule', client: 10042, application: 7,
      file: 'policies/shop.yaml', line: 12, name: 'block-admin', rule: { type },
    });
    expect(plan.changes[0]).not.toHaveProperty('replaces');
    expect(plan.summary).toEqual({ create: 1, update: 0, delete: 0, unchanged: 0, replace: 0, adopt: 0 });
    expect(plan.api_calls).toBe(1);
  });

  it('leaves an owned rule with the same comment unchanged', () => {
    const plan = planDocument(desiredState([desiredRule(commented)]), liveState([liveRule(commented, 5)]));
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });

  it('deletes an owned rule no policy declares, one call per id', () => {
    const plan = planDocument(desiredState(), liveState([liveRule(fields, 6), liveRule(ruleFields(type, 8), 7)]));
    expect(plan.changes.map(brief)).toEqual([
      { action: 'delete', id: 6, reason: 'not-declared' },
      { action: 'delete', id: 7, reason: 'not-declared' },
    ]);
    expect(plan.changes[1]).toMatchObject({ application: 8, rule: { type } });
    expect(plan.summary.delete).toBe(2);
  });

  it('never deletes an unmarked rule or one of another owner', () => {
    const plan = planDocument(desiredState(), liveState([liveRule(fields, 6, null), liveRule(fields, 7, 'team-a')]));
    expect(plan.changes).toEqual([]);
    expect(plan.safety.owned_count).toBe(0);
  });

  it('is satisfied by an equal rule of another owner, whatever its comment, and notes it', () => {
    const plan = planDocument(
      desiredState([desiredRule(commented, 'block-admin', 3)]),
      liveState([liveRule({ ...fields, comment: 'by hand' }, 900, 'team-a')]),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
    expect(plan.notes).toEqual([{
      level: 'info', kind: 'rule', client: 10042, file: 'policies/shop.yaml', line: 3, name: 'block-admin', id: 900,
      message: 'satisfied by unmanaged id 900 (owner team-a)',
    }]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('is satisfied by an equal unmarked rule, whatever its comment, listed once in `unmanaged`', () => {
    const plan = planDocument(
      desiredState([desiredRule(commented, 'block-admin', 3)]),
      liveState([liveRule({ ...fields, comment: 'by hand' }, 900, null)]),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
    expect(plan.notes).toEqual([]);
    expect(plan.unmanaged).toEqual([{ kind: 'rule', client: 10042, id: 900, file: 'policies/shop.yaml', line: 3, col: expect.any(Number), name: 'block-admin' }]);
  });

  it('updates a rule whose comment changed in place: one call, nothing created or deleted', () => {
    const plan = planDocument(desiredState([desiredRule(commented, 'block-admin')]), liveState([liveRule(fields, 41)]));
    expect(plan.changes.map(brief)).toEqual([{ action: 'update', id: 41, fields: ['comment'] }]);
    expect(plan.summary).toEqual({ create: 0, update: 1, delete: 0, unchanged: 0, replace: 0, adopt: 0 });
    expect(plan.api_calls).toBe(1);
  });

  it('with rule updates off, replaces a rule whose comment changed: the create comes before the delete', () => {
    const plan = planDocument(desiredState([desiredRule(commented, 'block-admin')]), liveState([liveRule(fields, 41)]), { ruleUpdates: 'replace' });
    expect(plan.changes.map(brief)).toEqual([
      { action: 'create', name: 'block-admin', replaces: [41] },
      { action: 'delete', id: 41, reason: 'replaced' },
    ]);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 0, replace: 1, adopt: 0 });
    expect(plan.safety.delete_count).toBe(0);
    expect(plan.rule_updates).toBe('replace');
    // The service keeps one mode rule per scope: the old one must go first, or the new one is dropped.
    expect(plan.changes[0]).toMatchObject(type === 'mode' ? { delete_first: true } : {});
    if (type !== 'mode') expect(plan.changes[0]).not.toHaveProperty('delete_first');
  });

  it('removes owned duplicates, keeping the exact comment, else the lowest id', () => {
    const exact = planDocument(
      desiredState([desiredRule(commented)]),
      liveState([liveRule(fields, 10), liveRule(commented, 30), liveRule(commented, 20)]),
    );
    expect(exact.changes.map(brief)).toEqual([
      { action: 'delete', id: 10, reason: 'duplicate' },
      { action: 'delete', id: 30, reason: 'duplicate' },
    ]);
    const same = planDocument(desiredState([desiredRule(fields)]), liveState([liveRule(fields, 12), liveRule(fields, 11)]));
    expect(same.changes.map(brief)).toEqual([{ action: 'delete', id: 12, reason: 'duplicate' }]);
    expect(same.summary).toEqual({ create: 0, update: 0, delete: 1, unchanged: 1, replace: 0, adopt: 0 });
  });

  it('updates the lowest id and removes the other owned copies when none has the comment', () => {
    const plan = planDocument(
      desiredState([desiredRule(commented, 'x')]),
      liveState([liveRule(fields, 52), liveRule(fields, 51)]),
    );
    expect(plan.changes.map(brief)).toEqual([
      { action: 'update', id: 51, fields: ['comment'] },
      { action: 'delete', id: 52, reason: 'duplicate' },
    ]);
  });

  it('drops an owned copy when an unmanaged one already provides the rule', () => {
    const plan = planDocument(
      desiredState([desiredRule(commented)]),
      liveState([liveRule(fields, 60), liveRule(fields, 61, null)]),
    );
    expect(plan.changes.map(brief)).toEqual([{ action: 'delete', id: 60, reason: 'duplicate' }]);
    expect(plan.notes[0]?.message).toBe('satisfied by unmanaged id 61');
  });

  it('treats an account-wide rule as application "all"', () => {
    const plan = planDocument(desiredState([desiredRule(ruleFields(type, 'all'))]), liveState());
    expect(plan.changes[0]?.application).toBe('all');
  });

  it('tells rules apart by identity: a changed point is another rule, a changed updatable field an update', () => {
    // The variant changes the point of a vpatch, the regex of a regex rule, the mode of a mode rule.
    const other = ruleFields(type, 7, '2');
    const plan = planDocument(desiredState([desiredRule(fields, 'a')]), liveState([liveRule(other, 70)]));
    expect(plan.changes.map(brief)).toEqual(type === 'vpatch'
      ? [{ action: 'create', name: 'a', replaces: undefined }, { action: 'delete', id: 70, reason: 'not-declared' }]
      : [{ action: 'update', id: 70, fields: [type === 'regex' ? 'regex' : 'mode'] }]);
  });
});

describe('rules of several owners', () => {
  it('uses the configured owner name', () => {
    const fields = ruleFields('vpatch');
    const live = liveState([liveRule(fields, 1, 'team-a'), liveRule(fields, 2, OWNER)]);
    const plan = planDocument(desiredState(), live, { owner: 'team-a' });
    expect(plan.owner).toBe('team-a');
    expect(plan.changes.map(brief)).toEqual([{ action: 'delete', id: 1, reason: 'not-declared' }]);
  });

  it('ignores live rules of clients no policy names', () => {
    const fields = { ...ruleFields('vpatch'), client: 555 };
    const plan = planDocument(desiredState(), liveState([liveRule(fields, 1)], [], [10042, 555]));
    expect(plan.changes).toEqual([]);
  });
});

describe('journal placeholders', () => {
  it('are never deleted, and a listed copy of the same rule is kept rather than the placeholder', () => {
    const rule = ruleFields('vpatch');
    const placeholder = { ...liveRule(rule, -1) };
    const listed = liveRule(rule, 41);
    const result = diffRules([desiredRule(rule)], [placeholder, listed], OWNER);
    expect(result.changes).toEqual([]);
    const undeclared = diffRules([], [placeholder], OWNER);
    expect(undeclared.changes).toEqual([]);
  });
});

describe('a rule whose identity changed', () => {
  it('is paired with its old copy by the name in the mark: a replacement, the delete waits for the create', () => {
    const before = ruleFields('regex');
    const after = withFields(before, { attack: 'xss' });
    const old = { ...liveRule(before, 41), name: 'curltool-scanner' };
    const plan = planDocument(desiredState([desiredRule(after, 'curltool-scanner', 14)]), liveState([old]));
    expect(plan.changes.map(brief)).toEqual([
      { action: 'create', name: 'curltool-scanner', replaces: [41] },
      { action: 'delete', id: 41, reason: 'replaced' },
    ]);
    expect(plan.summary).toMatchObject({ create: 0, replace: 1, delete: 0 });
    expect(plan.safety.delete_count).toBe(0);
  });

  it('is not paired across applications or with another name', () => {
    const before = ruleFields('regex');
    const after = withFields(before, { attack: 'xss' });
    const other = { ...liveRule(before, 41), name: 'another-rule' };
    const plan = planDocument(desiredState([desiredRule(after, 'curltool-scanner', 14)]), liveState([other]));
    expect(plan.changes.map(brief)).toEqual([
      { action: 'create', name: 'curltool-scanner', replaces: undefined },
      { action: 'delete', id: 41, reason: 'not-declared' },
    ]);
    const elsewhere = { ...liveRule(ruleFields('regex', 8), 42), name: 'curltool-scanner' };
    const apart = planDocument(desiredState([desiredRule(after, 'curltool-scanner', 14)]), liveState([elsewhere]));
    expect(apart.changes.map(brief)).toContainEqual({ action: 'delete', id: 42, reason: 'not-declared' });
  });
});
