/**
 * A field a rule leaves out is the service's: never compared, never sent,
 * never shown changing. A field it writes is managed; removing it from the
 * rule stops managing it.
 */
import { describe, expect, it } from 'vitest';
import { renderText } from '../../../src/plan/render/text.js';
import { ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import { withOwnerMark } from '../../../src/model/ownership.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { createBodies, hint, OWNER, planFor, policyText, updateBody } from './scenario.js';

/** What the service lists for a graphql rule created with mode and max_depth: every limit filled in. */
const GRAPHQL_LISTED = {
  mode: 'block', max_depth: 10, max_value_size_kb: 10, max_doc_size_kb: 100, max_doc_per_batch: 10,
  max_aliases: 5, introspection: true, debug_enabled: true,
};

const graphql = (fields: string) => policyText(`  - name: r\n    type: graphql_detection\n    mode: block\n${fields}`);

describe('optional fields', () => {
  it('a rule writing only mode and max_depth plans nothing against the service\'s filled-in listing', () => {
    const plan = planFor(graphql('    max_depth: 10\n'), [hint(1, 'graphql_detection', GRAPHQL_LISTED)]);
    expect(plan.changes).toEqual([]);
  });

  it('changing one written field is one update whose body holds the whole surface: that field changed, the rest as the service stores it', () => {
    const [policy, hints] = [graphql('    max_depth: 12\n'), [hint(1, 'graphql_detection', GRAPHQL_LISTED)]] as const;
    const plan = planFor(policy, hints);
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({ action: 'update', id: 1, fields: ['max_depth'] });
    const body = updateBody(policy, hints);
    // The service resets a field the body leaves out: every limit is sent, the silent ones as listed.
    expect(body).toMatchObject({ ...GRAPHQL_LISTED, max_depth: 12, title: '', set: '', active: true, variativity_disabled: true });
    expect(Object.values(body)).not.toContain(null);
    const text = renderText(plan);
    expect(text).toContain('~ max_depth: 10 → 12');
    expect(text).not.toContain('max_value_size_kb');
    expect(text).not.toContain('(none)');
  });

  it('a rule Rampart created reads back with the service\'s values filled in: no change and no note', () => {
    const policy = graphql('    max_depth: 10\n');
    const [declared] = loadPolicyTexts([{ file: 'policies/p.yaml', text: policy }]).desired?.rules ?? [];
    if (!declared) throw new Error('no rule');
    const comment = withOwnerMark(undefined, { owner: OWNER, fingerprint: ruleFingerprint(declared), name: 'r' });
    const plan = planFor(policy, [{ ...hint(1, 'graphql_detection', GRAPHQL_LISTED), comment }]);
    expect(plan.changes).toEqual([]);
    expect(plan.notes).toEqual([]);
  });

  it('removing a written field stops managing it: the service\'s value stands', () => {
    const listed = { ...GRAPHQL_LISTED, max_doc_size_kb: 512 };
    expect(planFor(graphql(''), [hint(1, 'graphql_detection', listed)]).changes).toEqual([]);
  });

  it('a create leaves out what the rule leaves out', () => {
    const [body] = createBodies(graphql('    max_depth: 12\n'), []);
    expect(body).toMatchObject({ type: 'graphql_detection', mode: 'block', max_depth: 12 });
    for (const key of ['max_value_size_kb', 'max_doc_size_kb', 'max_doc_per_batch', 'max_aliases', 'introspection', 'debug_enabled']) {
      expect(body).not.toHaveProperty(key);
    }
  });

  it('an optional field that cannot change in place counts only where written: left out, any live value stands', () => {
    const upload = (fields: string) => policyText(`  - name: r\n    type: file_upload_size_limit\n    size: 5\n${fields}`);
    const listed = { size: 5, size_unit: 'kb', mode: 'monitoring' };
    expect(planFor(upload(''), [hint(1, 'file_upload_size_limit', listed)]).changes).toEqual([]);
    // Written and different: another rule, created, and the old one replaced after it.
    const plan = planFor(upload('    size_unit: mb\n'), [hint(1, 'file_upload_size_limit', listed)]);
    expect(plan.changes).toMatchObject([{ action: 'create', kind: 'rule', replaces: [1] }, { action: 'delete', kind: 'rule', id: 1, reason: 'replaced' }]);
  });

  it('graphql\'s alias limit is max_aliases, a count changed in place', () => {
    const hints = [hint(1, 'graphql_detection', { ...GRAPHQL_LISTED, max_aliases: 8 })];
    const policy = graphql('    max_aliases: 3\n');
    expect(planFor(policy, hints).changes).toMatchObject([{ action: 'update', id: 1, fields: ['max_aliases'] }]);
    expect(updateBody(policy, hints)).toMatchObject({ max_aliases: 3 });
    expect(createBodies(policy, [])[0]).toMatchObject({ max_aliases: 3 });
  });

  it('the old key max_alias_size_kb is read as max_aliases for one release, with a warning that names the new key', () => {
    const loaded = loadPolicyTexts([{ file: 'p.yaml', text: graphql('    max_alias_size_kb: 3\n') }]);
    expect(loaded.diagnostics).toEqual([expect.objectContaining({
      severity: 'warning', code: 'renamed-key', line: 8, col: 5, message: expect.stringContaining('max_alias_size_kb is renamed max_aliases') as unknown,
    })]);
    expect(loaded.desired?.rules[0]?.fields).toMatchObject({ max_aliases: 3 });
    const both = loadPolicyTexts([{ file: 'p.yaml', text: graphql('    max_alias_size_kb: 3\n    max_aliases: 3\n') }]);
    expect(both.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'renamed-key-twice', line: 8 })]);
  });

  it('api_abuse_mode\'s mode may be left out: never compared, and a create says `enabled`, as the service\'s client does', () => {
    const policy = policyText('  - name: r\n    type: api_abuse_mode\n');
    expect(planFor(policy, [hint(1, 'api_abuse_mode', { mode: 'disabled' })]).changes).toEqual([]);
    expect(createBodies(policy, [])[0]).toMatchObject({ type: 'api_abuse_mode', mode: 'enabled' });
  });
});
