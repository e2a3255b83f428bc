/** The adoption pass (src/plan/adopt.ts) through buildPlan: pure, no emulator. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/plan/plan.js';
import { checkSafety } from '../../../src/plan/safety.js';
import { renderGithub } from '../../../src/plan/render/github.js';
import { renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import {
  desiredIp, desiredIps, desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields, withFields,
} from './builders.js';
import { planDocument } from '../../helpers/plan-document.js';

const adopt = { adopt: true };

describe('adopting rules', () => {
  const vpatch = { ...ruleFields('vpatch'), comment: 'by hand' };

  it('an unmanaged rule equal to a declaration: one adopt, nothing created or deleted; without --adopt one unmanaged entry', () => {
    const desired = desiredState([desiredRule(vpatch, 'admin', 3)]);
    const live = liveState([liveRule(vpatch, 900, null)]);
    const plain = planDocument(desired, live);
    expect(plain.changes).toEqual([]);
    expect(plain.unmanaged).toEqual([expect.objectContaining({ kind: 'rule', id: 900, line: 3, name: 'admin' })]);
    expect(plain.summary).toMatchObject({ unchanged: 1, adopt: 0 });

    const adopted = planDocument(desired, live, adopt);
    expect(adopted.adopt).toBe(true);
    expect(adopted.changes).toEqual([expect.objectContaining({ action: 'adopt', kind: 'rule', id: 900, fields: [], name: 'admin' })]);
    expect(adopted.summary).toMatchObject({ create: 0, delete: 0, update: 0, adopt: 1, unchanged: 0 });
    expect(adopted.unmanaged).toEqual([]);
    expect(adopted.api_calls).toBe(1);
  });

  it('adopting writes the declared comment: a different one is named among the fields', () => {
    const plan = planDocument(desiredState([desiredRule({ ...vpatch, comment: 'declared' })]), liveState([liveRule(vpatch, 900, null)]), adopt);
    expect(plan.changes).toEqual([expect.objectContaining({ action: 'adopt', fields: ['comment'] })]);
  });

  it('never adopts a rule of another owner, nor one when an owned copy serves the declaration', () => {
    const desired = desiredState([desiredRule(vpatch)]);
    expect(planDocument(desired, liveState([liveRule(vpatch, 900, 'team-b')]), adopt).changes).toEqual([]);
    const owned = planDocument(desired, liveState([liveRule(vpatch, 5), liveRule(vpatch, 900, null)]), adopt);
    expect(owned.changes).toEqual([]);
    expect(owned.summary.unchanged).toBe(1);
  });

  it('a one-per-scope rule held unmanaged with other values is a conflict; with --adopt one adopt that changes it', () => {
    const block = desiredRule(ruleFields('mode'), 'mode', 4);
    const monitoring = liveRule(ruleFields('mode', 7, 'x'), 77, null);
    const plan = planDocument(desiredState([block]), liveState([monitoring]));
    expect(plan.conflicts).toEqual([expect.objectContaining({ kind: 'rule', id: 77, line: 4, name: 'mode', message: expect.stringContaining('mode: monitoring') })]);
    const adopted = planDocument(desiredState([block]), liveState([monitoring]), adopt);
    expect(adopted.conflicts).toBeUndefined();
    expect(adopted.changes).toEqual([expect.objectContaining({ action: 'adopt', id: 77, fields: ['mode'] })]);
  });

  it('a one-per-scope rule held by another owner with other values is a conflict, with --adopt too: never a second rule in the scope', () => {
    const block = desiredRule(ruleFields('mode'), 'mode', 4);
    const theirs = liveRule(ruleFields('mode', 7, 'x'), 77, 'team-b');
    for (const options of [{}, adopt]) {
      const plan = planDocument(desiredState([block]), liveState([theirs]), options);
      expect(plan.changes).toEqual([]);
      expect(plan.conflicts).toEqual([expect.objectContaining({ kind: 'rule', id: 77, line: 4, message: expect.stringContaining('team-b') })]);
    }
  });

  it('a rule of a kind with many per scope, held unmanaged with other values, is no conflict: ours is created', () => {
    const plan = planDocument(desiredState([desiredRule(withFields(ruleFields('vpatch'), { attack: 'sqli' }))]), liveState([liveRule(ruleFields('vpatch'), 9, null)]));
    expect(plan.conflicts).toBeUndefined();
    expect(plan.changes.map((c) => c.action)).toEqual(['create']);
  });
});

describe('adopting IP values', () => {
  it('values of one unmanaged object go together in one forced create, from that object', () => {
    const desired = desiredState([], desiredIps(['IR', 'KP'], { ruleType: 'country' }));
    const live = liveState([], liveObject(50, ['IR', 'KP'], { ruleType: 'country' }, null));
    expect(planDocument(desired, live).unmanaged.map((u) => u.value)).toEqual(['IR', 'KP']);
    const plan = planDocument(desired, live, adopt);
    expect(plan.changes).toEqual([expect.objectContaining({ action: 'adopt', kind: 'ip', ids: [50], fields: [], object: expect.objectContaining({ values: ['IR', 'KP'] }) })]);
    expect(plan.summary).toMatchObject({ adopt: 2, create: 0, delete: 0 });
  });

  it('a value held unmanaged with another reason is adopted and changed with --adopt (left alone without)', () => {
    const desired = desiredState([], [desiredIp('10.0.0.0/8', { reason: 'new' })]);
    const live = liveState([], liveObject(9, ['10.0.0.0/8'], { reason: 'old' }, null));
    expect(planDocument(desired, live).changes).toEqual([]);
    expect(planDocument(desired, live, adopt).changes).toEqual([expect.objectContaining({ action: 'adopt', ids: [9], fields: ['reason'] })]);
  });

  it('a value held unmanaged in another list: a conflict; with --adopt a create in the declared list that replaces the holder, deleted after', () => {
    const desired = desiredState([], [desiredIp('10.0.0.0/8', { list: 'black' })]);
    const live = liveState([], liveObject(9, ['10.0.0.0/8'], { list: 'white' }, null));
    expect(planDocument(desired, live).conflicts).toEqual([expect.objectContaining({ kind: 'ip', id: 9, message: expect.stringContaining('allow list (id 9)') })]);
    const plan = planDocument(desired, live, adopt);
    expect(plan.changes).toEqual([
      expect.objectContaining({ action: 'create', kind: 'ip', force: false, replaces: [9] }),
      expect.objectContaining({ action: 'delete', kind: 'ip', ids: [9], objects: [expect.objectContaining({ reason: 'moved' })] }),
    ]);
    // Counted by the safety guard, as a move: the value leaves the list that held it.
    expect(plan.safety).toMatchObject({ delete_count: 1, move_count: 1 });
    expect(checkSafety(buildPlan(desired, live, adopt), { minOwned: 0, maxDeleteShare: 0 }).message).toContain('(1 of them a move made by --adopt)');
  });
});

describe('rendering adoptions', () => {
  it('text, markdown and GitHub show each adoption as its own action and count', () => {
    const vpatch = { ...ruleFields('vpatch'), comment: 'by hand' };
    const plan = planDocument(
      desiredState([desiredRule(vpatch, 'admin', 3)], [desiredIp('10.0.0.0/8', { reason: 'office' })]),
      liveState([liveRule(vpatch, 900, null)], liveObject(9, ['10.0.0.0/8'], { reason: 'office' }, null)),
      adopt,
    );
    const text = renderText(plan);
    expect(text).toContain('@ rule admin #900 (vpatch)  owner mark added');
    expect(text).toContain('@ deny list, ip_range (1 value)  owner mark added, taken from unmanaged #9');
    expect(text).toContain('2 to adopt');
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('2 to adopt');
    expect(markdown).toContain('! @ rule admin #900 (vpatch)  owner mark added');
    expect(renderGithub(plan).annotations).toContain('title=Rampart%3A adopt::@ rule admin #900 (vpatch) (client 10042): owner mark added');
  });

  it('without --adopt, one line for every declaration held by an unmanaged object', () => {
    const plan = planDocument(
      desiredState([], desiredIps(['IR', 'KP', 'RU'], { ruleType: 'country' })),
      liveState([], liveObject(50, ['IR', 'KP', 'RU'], { ruleType: 'country' }, null)),
    );
    const text = renderText(plan);
    expect(text.match(/held by unmanaged objects/g)).toHaveLength(1);
    expect(text).toContain('3 declared objects are held by unmanaged objects');
    expect(text).toContain('No changes. The account matches the policies.');
  });
});

describe('adopting a value held twice', () => {
  it('the forced create takes it out of every unmanaged holder in the list, and the change names them all', () => {
    const desired = desiredState([], [desiredIp('10.0.0.0/8')]);
    const live = liveState([], [...liveObject(9, ['10.0.0.0/8'], {}, null), ...liveObject(4, ['10.0.0.0/8'], {}, null)]);
    expect(planDocument(desired, live, adopt).changes).toEqual([expect.objectContaining({ action: 'adopt', ids: [4, 9] })]);
  });
});

describe('moving a value held for more applications than declared', () => {
  it('an unmanaged holder for applications the declaration does not cover is a conflict, never deleted (no gap for them)', () => {
    const desired = desiredState([], [desiredIp('10.0.0.0/8', { list: 'white', pools: [2] })]);
    const live = liveState([], liveObject(9, ['10.0.0.0/8'], { list: 'black', pools: [1, 2] }, null));
    const plan = planDocument(desired, live, adopt);
    expect(plan.changes.filter((c) => c.action === 'delete')).toEqual([]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ kind: 'ip', id: 9, message: expect.stringContaining('application 1') })]);
  });

  it('an account-wide holder (pool 0) is not moved by a declaration for one application', () => {
    const desired = desiredState([], [desiredIp('10.0.0.0/8', { list: 'white', pools: [2] })]);
    const live = liveState([], liveObject(9, ['10.0.0.0/8'], { list: 'black', pools: [0] }, null));
    const plan = planDocument(desired, live, adopt);
    expect(plan.changes.filter((c) => c.action === 'delete')).toEqual([]);
    expect(plan.conflicts).toEqual([expect.objectContaining({ kind: 'ip', id: 9, message: expect.stringContaining('all applications') })]);
  });

  it('declarations of the value that together cover every application of the holder move it', () => {
    const desired = desiredState([], [
      desiredIp('10.0.0.0/8', { list: 'white', pools: [2] }, 20),
      desiredIp('10.0.0.0/8', { list: 'black', pools: [1] }, 21),
    ]);
    const live = liveState([], liveObject(9, ['10.0.0.0/8'], { list: 'black', pools: [1, 2] }, null));
    const plan = planDocument(desired, live, adopt);
    expect(plan.conflicts).toBeUndefined();
    expect(plan.changes).toEqual([
      expect.objectContaining({ action: 'create', replaces: [9], object: expect.objectContaining({ list: 'black', pools: [1] }) }),
      expect.objectContaining({ action: 'create', replaces: [9], object: expect.objectContaining({ list: 'white', pools: [2] }) }),
      expect.objectContaining({ action: 'delete', ids: [9] }),
    ]);
  });
});

describe('exported objects a declaration still matches', () => {
  const vpatch = { ...ruleFields('vpatch'), comment: 'by hand' };

  it('an exported unmanaged rule a declaration matches is not "left unmanaged" when an owned copy serves the declaration', () => {
    const desired = desiredState([desiredRule(vpatch)]);
    const live = liveState([liveRule(vpatch, 5), liveRule(vpatch, 900, null)]);
    const exported = [{ kind: 'rule' as const, client: live.clients[0] as number, id: 900, file: 'app.yaml' }];
    expect(planDocument(desired, live, { exported }).left_unmanaged).toEqual([]);
  });

  it('an exported IP value still listed under its old id after its adoption (the listing lags) is not "left unmanaged"', () => {
    const desired = desiredState([], [desiredIp('10.0.0.0/8')]);
    const live = liveState([], [...liveObject(31, ['10.0.0.0/8']), ...liveObject(9, ['10.0.0.0/8'], {}, null)]);
    const exported = [{ kind: 'ip' as const, client: live.clients[0] as number, id: 9, value: '10.0.0.0/8', file: 'app.yaml' }];
    const plan = planDocument(desired, live, { exported });
    expect(plan.changes).toEqual([]);
    expect(plan.left_unmanaged).toEqual([]);
  });

  it('an exported object no declaration matches any more is still named', () => {
    const live = liveState([liveRule(vpatch, 900, null)]);
    const exported = [{ kind: 'rule' as const, client: live.clients[0] as number, id: 900, file: 'app.yaml' }];
    expect(planDocument(desiredState([]), live, { exported }).left_unmanaged).toEqual([expect.objectContaining({ kind: 'rule', id: 900 })]);
  });
});
