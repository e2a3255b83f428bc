/** A rule's changes as the plan document carries them: the full canonical rule, old beside new. */
import type { DeleteReason } from '../../model/delete-reason.js';
import { apiTypeOfRule, fieldValues, sortConditions, type ConditionType, type Point, type Rule } from '../../model/rule.js';
import { applicationOf } from '../application.js';
import type { FieldValue } from '../../rules/field.js';
import type { Application, PlanChangeBase } from '../change-document.js';

export interface PlanCondition {
  readonly point: Point;
  /** How the value is compared: `equal`, `iequal`, `regex`, `absent`. */
  readonly match: ConditionType;
  readonly value: string | null;
}

/** A rule as declared or listed, in canonical form (client on the change). */
export interface PlanRule {
  /** The rule's type as the policy files write it (`vpatch`, `rate_limit`, ...). */
  readonly type: string;
  /** The service API's `type` for it. */
  readonly api_type: string;
  /** Sorted canonically (`sortConditions`). */
  readonly conditions: readonly PlanCondition[];
  readonly point: readonly Point[];
  /** The kind's own fields by their policy-file names (`attack`, `rate`, ...), defaults filled in. */
  readonly fields: Readonly<Record<string, FieldValue>>;
  readonly comment?: string;
}

export interface PlanCreateRule extends PlanChangeBase {
  readonly action: 'create';
  readonly kind: 'rule';
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** Owned rule ids deleted later in this plan because this create replaces them. */
  readonly replaces?: readonly number[];
  /** The replaced rule is deleted before this create (a kind the service keeps one per scope). */
  readonly delete_first?: true;
  readonly rule: PlanRule;
}

/**
 * A rule changed in place by one `PUT /v3/hint/{id}`: an update of an owned
 * rule, or the adoption of an unmanaged one.
 */
interface PlanInPlaceRule extends PlanChangeBase {
  readonly kind: 'rule';
  readonly id: number;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly name: string;
  /** The fields that change (policy-file names), `comment` included when it does; for an adoption often none besides the mark. */
  readonly fields: readonly string[];
  /** Present when a changed field is nested: the keys that change below it (`threshold.count`). */
  readonly keys?: readonly string[];
  /** The rule as it will be. */
  readonly rule: PlanRule;
  /** The rule as it is. */
  readonly before: PlanRule;
  /** Rampart adopted the rule rather than created it (its mark says so, and keeps saying so). */
  readonly adopted?: true;
}

/** One update in place of an owned rule. */
export interface PlanUpdateRule extends PlanInPlaceRule {
  readonly action: 'update';
}

export interface PlanDeleteRule extends PlanChangeBase {
  readonly action: 'delete';
  readonly kind: 'rule';
  readonly id: number;
  /** The rule's name in the policies it was created from, when its mark says. */
  readonly name?: string;
  readonly reason: DeleteReason;
  readonly rule: PlanRule;
}

/**
 * Adoption (`--adopt`) of an unmanaged rule: one `PUT /v3/hint/{id}` adds the
 * owner mark to its comment (and changes `fields`, when the declaration
 * differs). Never a create or a delete.
 */
export interface PlanAdoptRule extends PlanInPlaceRule {
  readonly action: 'adopt';
}

export type PlanRuleChange = PlanCreateRule | PlanUpdateRule | PlanDeleteRule | PlanAdoptRule;

export function toPlanRule(rule: Rule): PlanRule {
  const fields: Record<string, FieldValue> = {};
  const values = fieldValues(rule);
  // Own keys of a plain object, without an array of entries per rule encoded.
  for (const name in values) {
    const value = values[name];
    if (value !== undefined) fields[name] = value;
  }
  return {
    type: rule.kind,
    api_type: apiTypeOfRule(rule),
    conditions: sortConditions(rule.conditions).map((c) => ({ point: c.point, match: c.type, value: c.value })),
    point: rule.point,
    fields,
    ...(rule.comment !== undefined && rule.comment !== '' ? { comment: rule.comment } : {}),
  };
}

/** From the rule's `[instance] equal "N"` conditions; none means account-wide. */
export function ruleApplication(rule: Rule): Application {
  // One loop, no intermediate lists: asked for every rule change a plan encodes or pairs.
  const ids: number[] = [];
  const { conditions } = rule;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as Rule['conditions'][number];
    if (c.point.length !== 1 || c.point[0] !== 'instance' || c.value === null) continue;
    const n = Number(c.value);
    if (Number.isInteger(n)) ids.push(n);
  }
  return applicationOf(ids);
}
