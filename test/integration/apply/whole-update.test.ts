/**
 * An update in place keeps what the policy does not name. The service resets
 * every mutable field an update leaves out (the emulator does too), so an
 * update that sent only the changed field would reset the console's values
 * of the fields the policy is silent on: a GraphQL rule's other limits, a
 * rate limit's burst, a rule's title and disabled state. Rampart sends the
 * whole surface, the stored value where the policy is silent.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { applyPlan } from '../../../src/apply/apply.js';
import { readLiveState } from '../../../src/live/read.js';
import { withOwnerMark } from '../../../src/model/ownership.js';
import { ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { useEmulatorApi } from '../../helpers/emulator.js';

let CLIENT = 10042;
const shared = useEmulatorApi();


function desired(rule: Record<string, unknown>) {
  const loaded = loadPolicyTexts([{ file: 'p.yaml', text: stringify({ version: 1, client: CLIENT, application: 7, rules: [{ name: 'r', ...rule }] }) }]);
  if (!loaded.desired) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.desired;
}

/** A rule as the console left it, already Rampart's (its mark carries `before`'s fingerprint), with values the policy never names. */
function seedOwned(before: Record<string, unknown>, stored: Record<string, unknown> & { type: string }) {
  const [rule] = desired(before).rules;
  if (!rule) throw new Error('no rule');
  return shared.emulator().control.seedHint({
    clientid: CLIENT, action: [{ point: ['instance'], type: 'equal', value: '7' }], variativity_disabled: true,
    comment: withOwnerMark(undefined, { owner: 'rampart', fingerprint: ruleFingerprint(rule), name: 'r' }),
    ...stored,
  });
}

async function applyDeclared(rule: Record<string, unknown>) {
  const want = desired(rule);
  const plan = buildPlan(want, await readLiveState(shared.api(), [CLIENT]));
  expect(plan.changes.map((change) => change.action)).toEqual(['update']);
  const report = await applyPlan(plan, { api: shared.api(), settleTimeoutMs: 0 });
  expect(report.failed, JSON.stringify(report.results)).toBe(0);
  // The next plan is empty: the update left the declared values in place.
  expect(buildPlan(want, await readLiveState(shared.api(), [CLIENT])).changes).toEqual([]);
}

const stored = (id: number) => shared.emulator().control.state().hints.find((hint) => hint.record.id === id)?.record;

describe('an update in place', () => {
  // An account per case, so one case's rule is never another's undeclared one.
  beforeEach(() => {
    CLIENT++;
  });

  it('keeps the limits a GraphQL rule does not declare, and the title, set and disabled state the console gave it', async () => {
    const declared = { type: 'graphql_detection', mode: 'block', max_depth: 10 };
    const seeded = seedOwned(declared, {
      type: 'graphql_detection', mode: 'block', max_depth: 10, max_value_size_kb: 40, max_doc_size_kb: 400, max_doc_per_batch: 20,
      max_aliases: 9, introspection: false, debug_enabled: false, title: 'checkout graphql', set: 'edge', active: false,
    });
    await applyDeclared({ ...declared, max_depth: 12 });
    expect(stored(seeded.id)).toMatchObject({
      max_depth: 12, max_value_size_kb: 40, max_doc_size_kb: 400, max_doc_per_batch: 20, max_aliases: 9,
      introspection: false, debug_enabled: false, title: 'checkout graphql', set: 'edge', active: false, variativity_disabled: true,
    });
  });

  it('keeps a rate limit\'s burst and delay when only the rate changes', async () => {
    const declared = { type: 'rate_limit', point: [['get', 'q']], rate: 30, rsp_status: 429 };
    const seeded = seedOwned(declared, { type: 'rate_limit', point: ['get', 'q'], rate: 30, rsp_status: 429, burst: 8, delay: 3, time_unit: 'rpm' });
    await applyDeclared({ ...declared, rate: 60 });
    expect(stored(seeded.id)).toMatchObject({ rate: 60, rsp_status: 429, burst: 8, delay: 3, time_unit: 'rpm' });
  });
});
