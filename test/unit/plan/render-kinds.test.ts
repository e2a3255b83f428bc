/**
 * Golden renderings of every rule kind in the registry created, updated in
 * place (each updatable field changed), replaced (an identity field changed)
 * and deleted by name: the renderers loop over the registry, so a kind whose
 * fields do not show fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { DesiredRule, LiveRule } from '../../../src/model/rule.js';
import type { DesiredState } from '../../../src/model/state.js';
import { renderGithub } from '../../../src/plan/render/github.js';
import { renderJson } from '../../../src/plan/render/json.js';
import { renderMarkdown } from '../../../src/plan/render/markdown.js';
import { renderText } from '../../../src/plan/render/text.js';
import { loadDesired } from '../../../src/reconcile/prepare.js';
import type { FieldValue } from '../../../src/rules/field.js';
import type { RuleKind } from '../../../src/rules/kind.js';
import { RULE_KINDS } from '../../../src/rules/registry.js';
import { otherValue } from '../../helpers/other-value.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';
import { CLIENT, liveRule, liveState, OWNER } from './builders.js';
import { golden } from './golden.js';
import { planDocument } from '../../helpers/plan-document.js';

const kinds = RULE_KINDS as readonly RuleKind[];

let dir: PolicyDir;
let desired: DesiredState;
beforeAll(async () => {
  dir = await policyDir();
  const rules = kinds.map((kind) => {
    const example: Record<string, unknown> = { ...(kind.examples[0] ?? {}) };
    if ('regex_id' in example) example.regex_id = 77;
    return { name: `every-${kind.yaml}`, type: kind.yaml, ...example };
  });
  await dir.write('every.yaml', stringify({ version: 1, client: CLIENT, application: 7, rules }));
  const loaded = (await loadDesired({ policies: dir.dir })).desired;
  // Paths relative to the repository, as a CI run shows them (the temporary directory differs per run).
  desired = { ...loaded, rules: loaded.rules.map((r) => ({ ...r, source: { file: 'policies/every.yaml', line: r.source.line, col: r.source.col, name: r.source.name } })) };
});
afterAll(async () => dir.cleanup());

/** The live copy Rampart made of a declaration, named in its mark. */
function made(rule: DesiredRule, id: number, change: (rule: DesiredRule) => DesiredRule = (r) => r): LiveRule {
  const { source, ...rest } = change(rule);
  return { ...liveRule(rest as LiveRule, id, OWNER), name: source.name };
}

function withField(rule: DesiredRule, name: string, value: FieldValue): DesiredRule {
  return { ...rule, fields: { ...rule.fields, [name]: value } } as DesiredRule;
}

function kindOf(rule: DesiredRule): RuleKind {
  return kinds.find((k) => k.yaml === rule.kind) as RuleKind;
}

describe('every rule kind', () => {
  it('created: every field shown', () => {
    const plan = planDocument(desired, liveState());
    expect(plan.summary.create).toBe(kinds.length);
    golden('every-kind-create.txt', renderText(plan));
    golden('every-kind-create.md', renderMarkdown(plan));
  });

  it('updated in place and replaced: old → new for every changed field', () => {
    // Each kind's updatable fields all changed; a rule that writes none gets an identity field changed (a replacement).
    const written = (rule: DesiredRule) => kindOf(rule).fields.filter((f) => f.updatable && rule.fields[f.name as never] !== undefined);
    const live = desired.rules.map((rule, i) => made(rule, 100 + i, (r) => {
      const kind = kindOf(r);
      const updatable = written(r);
      if (updatable.length > 0) return updatable.reduce((acc, f) => withField(acc, f.name, otherValue(f, acc.fields[f.name as never])), r);
      const identity = kind.fields.find((f) => !f.updatable && !f.local && !f.viaType);
      if (identity) return withField(r, identity.name, otherValue(identity, r.fields[identity.name as never]));
      return { ...r, point: [['header', 'X-OLD']] };
    }));
    const plan = planDocument(desired, liveState(live));
    const updates = plan.changes.filter((c) => c.action === 'update');
    expect(updates.length).toBe(desired.rules.filter((rule) => written(rule).length > 0).length);
    const text = renderText(plan);
    // Every updatable field a rule writes shows as old → new (a nested one key by key); the fields it leaves out are the service's.
    for (const rule of desired.rules) {
      for (const field of kindOf(rule).fields.filter((f) => f.updatable && rule.fields[f.name as never] !== undefined)) {
        expect(text, `${rule.kind}.${field.name}`).toMatch(new RegExp(`rule every-${rule.kind} #\\d+ \\(${rule.kind}\\)[^]*?~ ${field.name}[.:\\[][^\\n]* → `));
      }
    }
    golden('every-kind-update.txt', text);
    golden('every-kind-update.md', renderMarkdown(plan));
    golden('every-kind-update.github.txt', renderGithub(plan).annotations);
    golden('every-kind-update.json', renderJson(plan));
  });

  it('deleted: each named by its mark', () => {
    const live = desired.rules.map((rule, i) => made(rule, 100 + i));
    const plan = planDocument({ ...desired, rules: [] }, liveState(live));
    // A client cannot delete a counter: it stays, named, and no call is made.
    const counters = kinds.filter((kind) => kind.undeletable === 'always');
    expect(counters.length).toBeGreaterThan(0);
    expect(plan.summary.delete).toBe(kinds.length - counters.length);
    expect(plan.kept?.map((o) => o.type).sort()).toEqual(counters.map((kind) => kind.yaml).sort());
    const text = renderText(plan);
    for (const kind of kinds.filter((k) => !counters.includes(k))) expect(text).toContain(`- rule every-${kind.yaml} #`);
    for (const kind of counters) expect(text).toMatch(new RegExp(`${kind.yaml} every-${kind.yaml} #\\d+[^]*stay[^]*until the triggers using`));
    golden('every-kind-delete.txt', text);
    golden('every-kind-delete.md', renderMarkdown(plan));
  });
});
