/**
 * Policies as written and listings as the service returns them, through the
 * real validator, live reader, planner and request builders: the steps a plan
 * and an apply take, in process.
 */
import { hintCreateRequest, hintUpdateRequest } from '../../../src/apply/classes/rule-requests.js';
import { liveRuleFromHint } from '../../../src/live/normalize-hint.js';
import { withOwnerMark } from '../../../src/model/ownership.js';
import { plainRule, type LiveRule } from '../../../src/model/rule.js';
import { encodePlan } from '../../../src/plan/codec.js';
import { buildPlan } from '../../../src/plan/plan.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import type { Plan } from '../../../src/plan/model.js';
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

/** The plan, with its changes as the applier gets them. */
export function modelPlanFor(policy: string, hints: readonly ApiHint[]): Plan {
  const loaded = loadPolicyTexts([{ file: 'policies/p.yaml', text: policy }]);
  if (!loaded.desired) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return buildPlan(loaded.desired, { clients: [CLIENT], rules: live(hints), ipEntries: [] });
}

/** The plan document, as a reviewer reads it. */
export function planFor(policy: string, hints: readonly ApiHint[]): PlanDocument {
  return encodePlan(modelPlanFor(policy, hints));
}

/** The `PUT /v3/hint/{id}` body the applier sends for the plan's first change, an update. */
export function updateBody(policy: string, hints: readonly ApiHint[]): Record<string, unknown> {
  const change = modelPlanFor(policy, hints).changes[0];
  if (change?.action !== 'update' || change.kind !== 'rule') throw new Error(`expected a rule update, got ${JSON.stringify(change)}`);
  return { ...hintUpdateRequest(plainRule(change.rule), change.live, OWNER, change.rule.source.name) };
}

/** The `POST /v1/objects/hint/create` bodies the applier sends for the plan's rule creates. */
export function createBodies(policy: string, hints: readonly ApiHint[]): Record<string, unknown>[] {
  return modelPlanFor(policy, hints).changes.flatMap((change) =>
    (change.kind === 'rule' && change.action === 'create' ? [{ ...hintCreateRequest(plainRule(change.rule), OWNER) }] : []));
}
