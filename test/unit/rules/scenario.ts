/**
 * Policies as written and listings as the service returns them, through the
 * real validator, live reader, planner and request builders: the steps a plan
 * and an apply take, in process.
 */
import { hintUpdateRequest } from '../../../src/apply/requests.js';
import { liveRuleFromHint } from '../../../src/live/normalize-hint.js';
import { withOwnerMark } from '../../../src/model/ownership.js';
import type { LiveRule } from '../../../src/model/rule.js';
import { buildPlan } from '../../../src/plan/plan.js';
import type { Plan, PlanUpdateRule } from '../../../src/plan/types.js';
import { ruleFromPlan } from '../../../src/plan/objects.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import type { ApiHint } from '../../../src/api/records.js';

export const CLIENT = 10042;
export const OWNER = 'rampart';

/** A file of one client and application 7 holding `rules` (YAML, indented as list items under `rules:`). */
export function policyText(rules: string): string {
  return `version: 1\nclient: ${CLIENT}\napplication: 7\nrules:\n${rules}`;
}

/** A listed hint of application 7, owned by Rampart unless `owner` is null. */
export function hint(id: number, type: string, fields: Readonly<Record<string, unknown>>, name = 'r', owner: string | null = OWNER): ApiHint {
  return {
    id, clientid: CLIENT, type, action: [{ point: ['instance'], type: 'equal', value: '7' }],
    ...(owner === null ? {} : { comment: withOwnerMark(undefined, { owner, fingerprint: '0000000000000000', name }) }),
    ...fields,
  } as ApiHint;
}

export function live(hints: readonly ApiHint[]): LiveRule[] {
  return hints.map((h) => liveRuleFromHint(h) as LiveRule);
}

export function planFor(policy: string, hints: readonly ApiHint[]): Plan {
  const loaded = loadPolicyTexts([{ file: 'policies/p.yaml', text: policy }]);
  if (!loaded.desired) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return buildPlan(loaded.desired, { clients: [CLIENT], rules: live(hints), ipEntries: [] });
}

/** The `PUT /v3/hint/{id}` body the applier sends for an update of the plan. */
export function updateBody(change: PlanUpdateRule): Record<string, unknown> {
  return { ...hintUpdateRequest(ruleFromPlan(change.client, change.rule), change.fields, OWNER, change.name) };
}
