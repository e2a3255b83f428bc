/**
 * A conformance suite per rule kind, generated from each kind's examples and
 * run in process against the emulator over HTTP (whose rule table is its own,
 * written from the service's documentation, not from the registry):
 * YAML → desired → request body → create → listing → live is what was
 * declared; export → YAML → declares what is listed; a plan over the live state is
 * empty; each updatable field changes in place; each identity field replaces.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { applyPlan } from '../../../src/apply/apply.js';
import { hintCreateRequest } from '../../../src/apply/classes/rule-requests.js';
import { buildExport } from '../../../src/export/build.js';
import { readLiveState } from '../../../src/live/read.js';
import { satisfies, type DesiredRule, type LiveRule } from '../../../src/model/rule.js';
import type { LiveState } from '../../../src/model/state.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import type { FieldValue } from '../../../src/rules/field.js';
import type { RuleKind } from '../../../src/rules/kind.js';
import { RULE_KINDS } from '../../../src/rules/registry.js';
import { useEmulatorApi } from '../../helpers/emulator.js';
import { otherValue } from '../../helpers/other-value.js';

const shared = useEmulatorApi();
let client = 30000;


/** Rules of one example as a policy file of its own account, so cases never meet. */
function compile(account: number, rules: readonly Record<string, unknown>[]): readonly DesiredRule[] {
  const text = stringify({ version: 1, client: account, application: 7, rules });
  const result = loadPolicyTexts([{ file: 'kind.yaml', text }]);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.desired?.rules ?? [];
}

async function live(account: number): Promise<LiveState> {
  return readLiveState(shared.api(), [account]);
}

const state = (account: number, rules: readonly DesiredRule[]) => ({ clients: [account], rules, ipEntries: [] });

/** A regex rule of the account made by another tool (never Rampart's to delete): its `regex_id`. */
async function regexTarget(account: number, regex: string): Promise<number> {
  const [target] = compile(account, [{ name: 'target', type: 'regex', regex, attack: 'scanner', point: [['get', 'q']] }]);
  const created = await shared.api().createHint(hintCreateRequest(target as DesiredRule, 'another-tool'));
  expect(created.regex_id, 'a regex rule gets a regex_id').toEqual(expect.any(Number));
  return created.regex_id as number;
}

/** An example as written, with references made real: `regex_id` points at a regex rule of the account. */
async function prepared(example: Readonly<Record<string, unknown>>, account: number): Promise<Record<string, unknown>> {
  return 'regex_id' in example ? { ...example, regex_id: await regexTarget(account, '.*target.*') } : { ...example };
}

/**
 * The rule with `name` changed. Where another field depends on it (a control's
 * `reaction` keys on its `mode`), the kind's other example that differs there
 * stands in whole: the same change, written as a user would.
 */
function withChange(kind: RuleKind, written: Record<string, unknown>, name: string, changed: FieldValue): Record<string, unknown> {
  const plain = { ...written, [name]: changed };
  if (checkRules(plain)) return plain;
  const other = kind.examples.find((example) => JSON.stringify(example[name]) !== JSON.stringify(written[name]));
  if (!other) throw new Error(`${kind.yaml}: a change to ${name} needs an example that differs there`);
  return { name: written.name, type: written.type, ...other };
}

/** Whether the rule passes its kind's own checks (schema and cross-field rules). */
function checkRules(rule: Record<string, unknown>): boolean {
  const text = stringify({ version: 1, client: 1, application: 7, rules: [rule] });
  return loadPolicyTexts([{ file: 'check.yaml', text }]).diagnostics.every((d) => d.severity !== 'error');
}

const cases = (RULE_KINDS as readonly RuleKind[]).flatMap((kind) => kind.examples.map((example, i) => ({ kind, example, i })));

describe.each(cases)('$kind.yaml example $i', ({ kind, example }) => {
  it('round-trips: created, listed, exported and planned as the same rule', async () => {
    const account = ++client;
    const written = { name: `example-${kind.yaml}`, type: kind.yaml, ...(await prepared(example, account)) };
    const [desired] = compile(account, [written]);
    if (!desired) throw new Error('no rule compiled');
    const created = await shared.api().createHint(hintCreateRequest(desired, 'rampart', desired.source.name));
    const listed = (await live(account)).rules.find((rule) => rule.id === created.id) as LiveRule;
    expect(listed, 'listed').toBeDefined();
    expect(satisfies(listed, desired), 'listed as declared').toBe(true);
    expect(buildPlan(state(account, [desired]), await live(account)).changes).toEqual([]);

    const exported = buildExport(await live(account), { client: account, owner: 'rampart', excludeOwned: false, now: Math.floor(Date.now() / 1000), schemaRef: 'x' });
    expect(exported.skipped.filter((s) => s.kind === 'rule' && s.id === created.id)).toEqual([]);
    const reread = loadPolicyTexts(exported.files.map((f) => ({ file: f.name, text: f.text }))).desired?.rules ?? [];
    expect(reread.some((rule) => satisfies(listed, rule)), 'exported as listed').toBe(true);
  });

  // A reference (`regex_rule`) names another declared rule: test/integration/apply/regex-reference.test.ts covers it.
  for (const field of kind.fields.filter((f) => !f.local && (!f.viaType || !f.updatable))) {
    const how = field.updatable ? 'is updated in place' : 'replaces the rule (create, then delete)';
    it(`a change to ${field.name} ${how}`, async () => {
      const account = ++client;
      const written = { name: `example-${kind.yaml}`, type: kind.yaml, ...(await prepared(example, account)) };
      const [before] = compile(account, [written]);
      if (!before) throw new Error('no rule compiled');
      const first = await applyPlan(buildPlan(state(account, [before]), await live(account)), { api: shared.api(), settleTimeoutMs: 0 });
      expect(first.failed, JSON.stringify(first.results)).toBe(0);
      const current = (before.fields as Readonly<Record<string, FieldValue | undefined>>)[field.name];
      const changed = field.name === 'regex_id' ? await regexTarget(account, '.*other.*') : otherValue(field, current);
      const [after] = compile(account, [withChange(kind, written, field.name, changed)]);
      if (!after) throw new Error('no rule compiled');
      const plan = buildPlan(state(account, [after]), await live(account));
      if (field.updatable) {
        expect(plan.changes.map((c) => [c.action, c.action === 'update' ? c.fields : []])).toEqual([['update', [field.name]]]);
      } else {
        expect(plan.changes.map((c) => [c.action, c.kind === 'rule' && c.action === 'delete' ? c.reason : ''])).toEqual([['create', ''], ['delete', 'replaced']]);
      }
      const report = await applyPlan(plan, { api: shared.api(), settleTimeoutMs: 0 });
      expect(report.failed, JSON.stringify(report.results)).toBe(0);
      expect(buildPlan(state(account, [after]), await live(account)).changes).toEqual([]);
    });
  }
});
