/**
 * What a client cannot delete: a counter removed from the policies, and an
 * adopted abuse control (the account's default ones are the service's), stay
 * in place with a line in the plan and no call; a control Rampart created is
 * deleted as usual. Updates keep an adopted rule marked so.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { hintUpdateRequest } from '../../../src/apply/classes/rule-requests.js';
import { readOwnerMark, withOwnerMark } from '../../../src/model/ownership.js';
import type { DesiredRule, LiveRule } from '../../../src/model/rule.js';
import { renderText } from '../../../src/plan/render/text.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { CLIENT, liveRule, liveState, OWNER } from './builders.js';
import { planDocument } from '../../helpers/plan-document.js';
import { throwOnConflicts } from '../../../src/reconcile/prepare.js';
import { buildPlan } from '../../../src/plan/plan.js';

function compile(rules: readonly Record<string, unknown>[]): DesiredRule[] {
  const result = loadPolicyTexts([{ file: 'p.yaml', text: stringify({ version: 1, client: CLIENT, application: 7, rules }) }]);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return [...(result.desired?.rules ?? [])];
}

const counter = { name: 'login-counter', type: 'bruteforce_counter', when: [{ point: ['path', 0], equal: 'login' }] };
const control = {
  name: 'login-brute', type: 'brute', mode: 'monitoring', threshold: { count: 5, period: 60 }, reaction: { graylist_by_ip: '1h' },
  enumerated_parameters: { mode: 'exact', points: [{ point: [['post'], ['form_urlencoded', 'password']] }] },
};
const other = { name: 'other', type: 'vpatch', attack: 'any', point: [['header', 'X-A']] };

/** The live copy of a declaration, carrying Rampart's mark (adopted or created). */
function owned(rule: DesiredRule, id: number, adopted = false): LiveRule {
  const { source, ...rest } = rule;
  return { ...liveRule(rest as LiveRule, id, OWNER), name: source.name, ...(adopted ? { adopted: true } : {}) };
}

const desiredOnly = (rules: DesiredRule[]) => ({ clients: [CLIENT], rules, ipEntries: [] });

describe('rules a client cannot delete', () => {
  it('a counter removed from the policies stays: no change, named in the plan, asked again never', () => {
    const [kept, staying] = compile([counter, other]) as [DesiredRule, DesiredRule];
    const plan = planDocument(desiredOnly([staying]), liveState([owned(kept, 41), owned(staying, 42)]));
    expect(plan.changes).toEqual([]);
    expect(plan.kept).toEqual([{ kind: 'rule', client: CLIENT, id: 41, type: 'bruteforce_counter', name: 'login-counter', undeletable: 'always' }]);
    expect(renderText(plan)).toContain('bruteforce_counter login-counter #41 stays until the triggers using it are gone (a client cannot delete a counter)');
    expect(renderText(plan)).not.toContain('No changes. The account matches');
  });

  it('an adopted control removed from the policies stays; one Rampart created is deleted', () => {
    const [made] = compile([control]) as [DesiredRule];
    const adopted = planDocument(desiredOnly([]), liveState([owned(made, 7, true)]));
    expect(adopted.changes).toEqual([]);
    expect(adopted.kept).toEqual([expect.objectContaining({ id: 7, type: 'brute', undeletable: 'adopted' })]);
    expect(renderText(adopted)).toContain('brute login-brute #7 stays: the service made it and keeps it');
    const created = planDocument(desiredOnly([]), liveState([owned(made, 7)]));
    expect(created.changes.map((change) => [change.action, change.kind === 'rule' && change.action === 'delete' ? change.id : 0])).toEqual([['delete', 7]]);
    expect(created.kept).toBeUndefined();
  });

  it('an adopted control whose mode changes is refused, with the way out: no second control beside the one the service keeps', () => {
    const [before] = compile([control]) as [DesiredRule];
    const [after] = compile([{ ...control, mode: 'block', reaction: { block_by_ip: '1h' } }]) as [DesiredRule];
    const plan = planDocument(desiredOnly([after]), liveState([owned(before, 7, true)]));
    expect(plan.changes).toEqual([]);
    expect(plan.conflicts).toEqual([expect.objectContaining({
      kind: 'rule', id: 7, name: 'login-brute', adoptable: false,
      message: expect.stringMatching(/brute #7 is the service's own and cannot be deleted, and mode cannot change in place: .*Keep mode: monitoring in the policy; to change it, edit or disable the control in the console/) as unknown,
    })]);
    expect(() => throwOnConflicts(buildPlan(desiredOnly([after]), liveState([owned(before, 7, true)])))).toThrow(/conflict with objects the service keeps; nothing is written[\s\S]*Adopting cannot resolve these/);
    // One Rampart created is replaced as usual: created, then the old one deleted.
    const mine = planDocument(desiredOnly([after]), liveState([owned(before, 8)]));
    expect(mine.changes.map((change) => change.action)).toEqual(['create', 'delete']);
  });

  it('an update of an adopted rule keeps saying so in the mark', () => {
    const [rule] = compile([control]) as [DesiredRule];
    const live = owned({ ...rule, fields: { ...rule.fields, threshold: { count: 9, period: 60 } } } as DesiredRule, 7, true);
    const plan = planDocument(desiredOnly([rule]), liveState([live]));
    const [update] = plan.changes;
    expect(update).toMatchObject({ action: 'update', adopted: true, fields: ['threshold'] });
    const body = hintUpdateRequest(rule, live, OWNER, 'login-brute', true);
    // The whole surface: the five common fields, and the control's threshold, reaction and parameters.
    expect(Object.keys(body).sort()).toEqual(['active', 'comment', 'enumerated_parameters', 'reaction', 'set', 'threshold', 'title', 'variativity_disabled']);
    expect(readOwnerMark(body.comment)).toMatchObject({ owner: OWNER, name: 'login-brute', adopted: true });
  });

  it('the mass-delete guard counts only what a plan could delete: counters do not dilute its share', () => {
    const vpatches = compile(Array.from({ length: 12 }, (_, i) => ({ name: `v${i}`, type: 'vpatch', attack: 'any', point: [['header', `X-${i}`]] })));
    const counters = compile(Array.from({ length: 20 }, (_, i) => ({ name: `c${i}`, type: 'bruteforce_counter', when: [{ point: ['path', 0], equal: `p${i}` }] })));
    const live = liveState([...vpatches.map((rule, i) => owned(rule, 100 + i)), ...counters.map((rule, i) => owned(rule, 200 + i))]);
    // Five of the twelve deletable rules go: 42%, past the 30% guard (5 of 32 objects would be 16%).
    const plan = planDocument(desiredOnly([...vpatches.slice(5), ...counters]), live);
    expect(plan.safety).toMatchObject({ ok: false, delete_count: 5, owned_count: 12 });
  });

  it('the mark reads back adopted only when it says so; older marks are not', () => {
    expect(readOwnerMark(withOwnerMark('x', { owner: OWNER, fingerprint: 'ab', adopted: true }))).toEqual({ text: 'x', owner: OWNER, fingerprint: 'ab', adopted: true });
    expect(readOwnerMark('x [managed-by:rampart fp:ab]')).toEqual({ text: 'x', owner: OWNER, fingerprint: 'ab' });
  });
});

describe('credential-stuffing updates', () => {
  it('send the whole surface: the changed field, the others as stored, and cred_stuff_type', () => {
    const [rule] = compile([{ name: 'creds', type: 'credential_stuffing_regex', regex: '^pass$', login_regex: '^user$', case_sensitive: true }]) as [DesiredRule];
    const live = { ...rule, id: 5, fields: { ...rule.fields, login_regex: '^login$', cred_stuff_type: 'custom' } } as LiveRule;
    expect(hintUpdateRequest(rule, live, OWNER, 'creds')).toMatchObject({
      regex: '^pass$', login_regex: '^user$', case_sensitive: true, cred_stuff_type: 'custom', variativity_disabled: true, active: true, title: '', set: '',
    });
  });
});
