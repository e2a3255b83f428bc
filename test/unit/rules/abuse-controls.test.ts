/**
 * The abuse mitigation controls end to end in process: listings read as the
 * service returns them (flat points, reaction keys echoed as 0, read-only
 * fields), plans key by key, updates in place of the updatable fields,
 * replacements of identity changes, request bodies, and export.
 */
import { describe, expect, it } from 'vitest';
import { buildExport } from '../../../src/export/build.js';
import { renderJson } from '../../../src/plan/render/json.js';
import { renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { CLIENT, createBodies, hint, live, OWNER, planFor, policyText, updateBody } from './scenario.js';
import { planDocument } from '../../helpers/plan-document.js';

const LOGIN = `  - name: login
    type: brute
    mode: block
    threshold: { count: 20, period: 60 }
    reaction: { block_by_ip: 1h }
    enumerated_parameters:
      mode: exact
      points:
        - { point: [[post], [json_doc], [hash, password]], sensitive: true }
`;

/** The login control as the service lists it: points flat, a reaction key it echoes as 0, read-only fields, defaults filled in. */
const LOGIN_LISTED = {
  mode: 'block',
  threshold: { count: 20, period: 60 },
  reaction: { block_by_ip: 3600, block_by_session: 0, graylist_by_ip: null },
  enumerated_parameters: { mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'], sensitive: true }] },
  advanced_conditions: [],
  attack_type: 'brute',
  mitigation: 'brute',
};

describe('abuse mitigation controls', () => {
  it('read back as declared: nothing to change', () => {
    expect(planFor(policyText(LOGIN), [hint(1, 'brute', LOGIN_LISTED, 'login')]).changes).toEqual([]);
  });

  it('a threshold change is one update shown key by key in text, markdown and JSON, its body the whole surface', () => {
    const [policy, hints] = [policyText(LOGIN.replace('count: 20', 'count: 30')), [hint(1, 'brute', LOGIN_LISTED, 'login')]] as const;
    const plan = planFor(policy, hints);
    expect(plan.changes).toHaveLength(1);
    const update = plan.changes[0];
    expect(update).toMatchObject({ action: 'update', id: 1, fields: ['threshold'], keys: ['threshold.count'] });
    expect(renderText(plan)).toMatch(/~ threshold\.count: +20 → 30\n/);
    expect(renderText(plan)).toMatch(/ {2}threshold\.period: +60\n/);
    expect(renderMarkdown(plan)).toContain('threshold.count');
    expect(JSON.parse(renderJson(plan))).toMatchObject({ changes: [{ keys: ['threshold.count'] }] });
    const body = updateBody(policy, hints);
    expect(Object.keys(body).sort()).toEqual(['active', 'comment', 'enumerated_parameters', 'reaction', 'set', 'threshold', 'title', 'variativity_disabled']);
    expect(body.threshold).toEqual({ count: 30, period: 60 });
    expect(body.reaction).toEqual({ block_by_ip: 3600 });
  });

  it('a reaction change sends the reaction as written, in seconds', () => {
    const [policy, hints] = [policyText(LOGIN.replace('block_by_ip: 1h', 'block_by_ip: 2h, block_by_session: 10m')), [hint(1, 'brute', LOGIN_LISTED, 'login')]] as const;
    const plan = planFor(policy, hints);
    expect(plan.changes[0]).toMatchObject({ keys: ['reaction.block_by_session', 'reaction.block_by_ip'] });
    expect(updateBody(policy, hints).reaction).toEqual({ block_by_session: 600, block_by_ip: 7200 });
    expect(renderText(plan)).toMatch(/~ reaction\.block_by_ip: +1h → 2h\n/);
  });

  it('a form of enumerated_parameters this version does not know is read by its tag, and updated to the declared one', () => {
    const listed = { ...LOGIN_LISTED, enumerated_parameters: { mode: 'learned', model: 7 } };
    const plan = planFor(policyText(LOGIN), [hint(1, 'brute', listed, 'login')]);
    expect(plan.changes).toMatchObject([{ action: 'update', fields: ['enumerated_parameters'] }]);
    expect(renderText(plan)).toContain('~ enumerated_parameters.mode:');
  });

  it('a mode change replaces the control: created first, then the old one deleted', () => {
    const monitoring = LOGIN.replace('mode: block', 'mode: monitoring').replace('block_by_ip: 1h', 'graylist_by_ip: 1h');
    const plan = planFor(policyText(monitoring), [hint(1, 'brute', LOGIN_LISTED, 'login')]);
    expect(plan.changes).toMatchObject([{ action: 'create', replaces: [1] }, { action: 'delete', id: 1, reason: 'replaced' }]);
  });

  it('an advanced_conditions change replaces the control', () => {
    const withCondition = `${LOGIN}    advanced_conditions:\n      - { field: method, operator: eq, value: [POST] }\n`;
    const plan = planFor(policyText(withCondition), [hint(1, 'brute', LOGIN_LISTED, 'login')]);
    expect(plan.changes).toMatchObject([{ action: 'create', replaces: [1] }, { action: 'delete', id: 1, reason: 'replaced' }]);
    expect(renderText(plan)).toContain('~ advanced_conditions[0].field:');
  });

  it('create bodies: points two-level in conditions, flat in enumerated_parameters, regexp mode with both flags always sent, the attack type given', () => {
    const bola = `  - name: orders
    type: bola
    mode: monitoring
    threshold: { count: 50, period: 30 }
    reaction: { graylist_by_ip: 1d }
    enumerated_parameters: { mode: regexp, name_regexps: ['^order_id$'], value_regexps: [''], plain_parameters: true }
    arbitrary_conditions:
      - { point: [[header, x-client]], operator: eq, value: [mobile] }
`;
    const bodies = createBodies(policyText(`${LOGIN}${bola}`), []);
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    expect(byType.brute?.enumerated_parameters).toEqual({ mode: 'exact', points: [{ point: ['post', 'json_doc', 'hash', 'password'], sensitive: true }] });
    expect(byType.brute?.reaction).toEqual({ block_by_ip: 3600 });
    expect(byType.brute).not.toHaveProperty('advanced_conditions');
    expect(byType.bola?.enumerated_parameters).toEqual({
      mode: 'regexp', name_regexps: ['^order_id$'], value_regexps: [''], additional_parameters: false, plain_parameters: true,
    });
    expect(byType.bola?.arbitrary_conditions).toEqual([{ point: [['header', 'X-CLIENT']], operator: 'eq', value: ['mobile'] }]);
    expect([byType.brute?.attack_type, byType.bola?.attack_type]).toEqual(['brute', 'bola']);
    for (const body of bodies) expect(body).not.toHaveProperty('point');
  });

  it('export writes only what differs from the service\'s defaults, and plans nothing on it', () => {
    const listed = live([
      hint(1, 'brute', LOGIN_LISTED, 'login', null),
      hint(2, 'enum', {
        mode: 'monitoring', threshold: { count: 5, period: 600 }, reaction: { graylist_by_ip: 900 },
        enumerated_parameters: { mode: 'regexp', name_regexps: ['user'], value_regexps: [''], additional_parameters: false, plain_parameters: false },
        arbitrary_conditions: [{ point: ['get', 'id'], operator: 'eq', value: ['1'] }], attack_type: 'enum', mitigation: 'enum',
      }, 'e', null),
    ]);
    const state = { clients: [CLIENT], rules: listed, ipEntries: [] };
    const exported = buildExport(state, { client: CLIENT, owner: OWNER, excludeOwned: true, now: 1_800_000_000, schemaRef: 'schema.json' });
    expect(exported.skipped).toEqual([]);
    const [file] = exported.files;
    expect(file?.text).not.toContain('additional_parameters');
    expect(file?.text).not.toContain('sensitive: false');
    expect(file?.text).toContain('block_by_ip: 1h');
    expect(file?.text).toContain('graylist_by_ip: 15m');
    const loaded = loadPolicyTexts(exported.files.map((f) => ({ file: f.name, text: f.text })));
    expect(loaded.diagnostics).toEqual([]);
    expect(planDocument(loaded.desired ?? { clients: [], rules: [], ipEntries: [] }, state).changes).toEqual([]);
  });
});
