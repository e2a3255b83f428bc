/**
 * Rules (the API's "hints") in the canonical form both sides are compared in.
 * The policy normalizer produces these from YAML; the live reader produces them
 * from API listings. Two rules with the same `ruleKey` are the same rule.
 */

/** The rule types Rampart manages, as the API names them. */
export const MANAGED_RULE_TYPES = ['vpatch', 'regex', 'service_mode'] as const;
export type RuleType = (typeof MANAGED_RULE_TYPES)[number];

export const CONDITION_TYPES = ['equal', 'iequal', 'regex', 'absent'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/**
 * One request point: `['header', 'HOST']`, `['path', 0]`, `['instance']`, `['get', 'q']`.
 * Header names are upper-cased; path indexes are integers.
 */
export type Point = readonly (string | number)[];

export interface Condition {
  readonly point: Point;
  readonly type: ConditionType;
  /** `null` for `absent`; `iequal` values lower-cased; instance ids as strings. */
  readonly value: string | null;
}

export interface Rule {
  readonly client: number;
  readonly type: RuleType;
  /** Sorted by `conditionKey`: the server treats conditions as a set. */
  readonly conditions: readonly Condition[];
  /** Two-dimensional: a list of points. Empty for `service_mode`. */
  readonly point: readonly Point[];
  /** `attack_type` for vpatch and regex. */
  readonly attackType?: string;
  /** The expression of a `regex` rule. */
  readonly regex?: string;
  /** The filtering mode of a `service_mode` rule. */
  readonly mode?: string;
  /** The user's comment, without Rampart's owner mark. Not part of the identity. */
  readonly comment?: string;
}

/** Where a desired object was declared, kept from parse to plan. */
export interface Source {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  /** Rule name, or a label such as `ip_lists.deny[0]` for IP entries. */
  readonly name: string;
}

export interface DesiredRule extends Rule {
  readonly source: Source;
}

export interface LiveRule extends Rule {
  /** The API's hint id. */
  readonly id: number;
  /** Owner name found in the comment's mark, or undefined for a foreign rule. */
  readonly owner?: string;
  /** Fingerprint of the declaration it was created from, from the mark (model/fingerprint.ts). */
  readonly fingerprint?: string;
  /** The name of the rule it was created from, from the mark. */
  readonly name?: string;
}

export function pointKey(point: Point): string {
  return JSON.stringify(point);
}

export function conditionKey(condition: Condition): string {
  let key = conditionKeys.get(condition);
  if (key === undefined) {
    key = JSON.stringify([condition.point, condition.type, condition.value]);
    conditionKeys.set(condition, key);
  }
  return key;
}

const conditionKeys = new WeakMap<Condition, string>();

/** Canonical condition order, so equal sets compare and print identically. */
export function sortConditions(conditions: readonly Condition[]): Condition[] {
  return [...conditions].sort((a, b) => compareStrings(conditionKey(a), conditionKey(b)));
}

/**
 * The identity of a rule: everything the server matches on. The comment is not
 * part of it: a comment change replaces the rule but two rules that differ only
 * by comment protect the same traffic.
 */
export function ruleKey(rule: Rule): string {
  let key = ruleKeys.get(rule);
  if (key === undefined) {
    key = JSON.stringify([
      rule.client,
      rule.type,
      sortConditions(rule.conditions).map(conditionKey),
      rule.point.map(pointKey),
      rule.attackType ?? null,
      rule.regex ?? null,
      rule.mode ?? null,
    ]);
    ruleKeys.set(rule, key);
  }
  return key;
}

/**
 * Rules are immutable values; their key is computed once each. A plan at scale
 * asks for it from validation, the diff and both digests.
 */
const ruleKeys = new WeakMap<Rule, string>();

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
