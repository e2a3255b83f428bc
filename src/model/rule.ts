/**
 * Rules (the API's "hints") in the canonical form both sides are compared in.
 * The policy normalizer produces these from YAML; the live reader produces them
 * from API listings. Two rules with the same `ruleKey` are the same rule (its
 * identity); their updatable fields and comment can still differ, which an
 * update in place mends. What a kind's fields are is the registry's knowledge
 * (src/rules/); this module only knows how rules compare.
 */
import { sameValue, type FieldValue } from '../rules/field.js';
import { apiTypeOf, referencesOf, ruleKind, type FieldsOf, type KindName, type NamedReference } from '../rules/registry.js';
import type { RuleKind } from '../rules/kind.js';
import { compareStrings } from './compare.js';
import type { RuleCommonFields } from './rule-common.js';
import type { Source } from './source.js';
import type { Point } from '../grammar/points.js';

export const CONDITION_TYPES = ['equal', 'iequal', 'regex', 'absent'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

// A rule's points are written in the service's point grammar, below the catalogue this model reads.
export type { Point } from '../grammar/points.js';

export interface Condition {
  readonly point: Point;
  readonly type: ConditionType;
  /** `null` for `absent`; `iequal` values lower-cased; instance ids as strings. */
  readonly value: string | null;
}

interface RuleBase {
  readonly client: number;
  /** Sorted by `conditionKey`: the server treats conditions as a set. */
  readonly conditions: readonly Condition[];
  /** Two-dimensional: a list of points. Empty for kinds without a point. */
  readonly point: readonly Point[];
  /** The user's comment, without Rampart's owner mark. Not part of the identity. */
  readonly comment?: string;
}

/** A rule of one kind, its fields typed by the kind's declaration. */
export type RuleOf<K extends KindName> = RuleBase & {
  readonly kind: K;
  /**
   * Canonical values by YAML field name. A desired rule holds the fields it
   * writes (a field left out is the service's); a live rule what was listed.
   */
  readonly fields: FieldsOf<K>;
};

/** A rule of any kind: a union the compiler checks switches on `kind` against. */
export type Rule = { [K in KindName]: RuleOf<K> }[KindName];

export type DesiredRule = Rule & {
  readonly source: Source;
};

export type LiveRule = Rule & LiveRuleFacts;

interface LiveRuleFacts {
  /** The API's hint id. */
  readonly id: number;
  /** Owner name found in the comment's mark, or undefined for a foreign rule. */
  readonly owner?: string;
  /** Fingerprint of the declaration it was created from, from the mark (model/fingerprint.ts). */
  readonly fingerprint?: string;
  /** The name of the rule it was created from, from the mark. */
  readonly name?: string;
  /** A regex rule's id for `ignore_regex` rules to point at (regex kinds only). */
  readonly regexId?: number;
  /** Rampart adopted the rule rather than created it, from the mark. */
  readonly adopted?: boolean;
  /** Its title, set and active flag where they are not what Rampart writes (rule-common.ts): kept by an update. */
  readonly common?: RuleCommonFields;
}

export function kindOf(rule: Rule): RuleKind {
  return ruleKind(rule.kind);
}

/** The fields of any rule, by YAML name, for code that loops over a kind's fields. */
export function fieldValues(rule: Rule): Readonly<Record<string, FieldValue | undefined>> {
  return rule.fields as Readonly<Record<string, FieldValue | undefined>>;
}

/**
 * The rule alone, in canonical form: conditions sorted, fields left out by
 * the declaration absent, no empty comment, and nothing of where it was
 * declared or listed. What a write sends and a journal remembers.
 */
export function plainRule(rule: Rule): Rule {
  const fields: Record<string, FieldValue> = {};
  for (const [name, value] of Object.entries(fieldValues(rule))) if (value !== undefined) fields[name] = value;
  return {
    client: rule.client, kind: rule.kind, fields, conditions: sortConditions(rule.conditions), point: rule.point,
    ...(rule.comment !== undefined && rule.comment !== '' ? { comment: rule.comment } : {}),
  } as Rule;
}

/** The references the rule makes to other rules of its file (`regex_rule`), by the registry. */
export function referencesOfRule(rule: Rule): NamedReference[] {
  return referencesOf(rule.kind, fieldValues(rule));
}

/** The rule with a reference replaced by the id it resolves to (`regex_rule: x` → `regex_id: 12`). */
export function withReferenceResolved<R extends Rule>(rule: R, reference: NamedReference, id: number): R {
  const { [reference.field]: _named, ...fields } = fieldValues(rule);
  return { ...rule, fields: { ...fields, [reference.idField]: id } };
}

/** The API `type` the rule is created with. */
export function apiTypeOfRule(rule: Rule): string {
  return apiTypeOf(kindOf(rule), fieldValues(rule));
}

export function pointKey(point: Point): string {
  return JSON.stringify(point);
}

export function conditionKey(condition: Condition): string {
  return JSON.stringify([condition.point, condition.type, condition.value]);
}

/**
 * Canonical condition order, so equal sets compare and print identically.
 * Each key is made once per sort, and not kept: a daemon held them for every
 * declared rule between cycles (2 MB at 10k rules), and a rule's own key,
 * which holds them, is kept anyway. Conditions already in order (a listed
 * rule the service kept as sent, a rule of one condition) are copied, not
 * sorted: a sort allocates more than the keys it compares.
 */
export function sortConditions(conditions: readonly Condition[]): Condition[] {
  if (conditions.length < 2) return conditions.slice();
  const keys = conditions.map(conditionKey);
  if (inOrder(keys)) return conditions.slice();
  return keys
    .map((key, i) => ({ key, condition: conditions[i] as Condition }))
    .sort((a, b) => compareStrings(a.key, b.key))
    .map(({ condition }) => condition);
}

/** The conditions' keys in canonical order: the order they have when the rule was made by `sortConditions`. */
function conditionKeys(conditions: readonly Condition[]): string[] {
  const keys = conditions.map(conditionKey);
  return inOrder(keys) ? keys : keys.sort(compareStrings);
}

function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (compareStrings(keys[i - 1] as string, keys[i] as string) > 0) return false;
  return true;
}

/**
 * The identity of a rule: its kind, conditions, point and the fields its kind
 * cannot change in place. Updatable fields and the comment are left out: a
 * rule that differs only there is the same rule, updated. So are identity
 * fields a rule may leave to the service (`writtenIdentity`): those count
 * only where the declaration writes them (`identityDiffers`).
 */
export function ruleKey(rule: Rule): string {
  let key = ruleKeys.get(rule);
  if (key === undefined) {
    const values = fieldValues(rule);
    key = JSON.stringify([
      rule.client,
      rule.kind,
      conditionKeys(rule.conditions),
      rule.point.map(pointKey),
      keyFieldsOf(kindOf(rule)).map((name) => values[name] ?? null),
    ]);
    ruleKeys.set(rule, key);
  }
  return key;
}

/**
 * Keeps `key`, the text another rule of the same identity already holds, as
 * `rule`'s key. The diff joins each listed rule to its declaration by key; a
 * listed rule that then held its own copy of the text kept a second 13.5 MB
 * at 100k rules for as long as the plan lived.
 */
export function shareRuleKey(rule: Rule, key: string): void {
  ruleKeys.set(rule, key);
}

/**
 * Everything the rule says: its identity, every field (updatable ones too) and
 * its comment. Two rules with the same content key need no write at all. Not
 * kept: its one caller in a cycle (the fingerprint) keeps its own short hash,
 * and a daemon held these texts for every declared rule between cycles.
 */
export function ruleContentKey(rule: Rule): string {
  const values = fieldValues(rule);
  return JSON.stringify([ruleKey(rule), kindOf(rule).fields.map((field) => values[field.name] ?? null), rule.comment || null]);
}

/**
 * Updatable fields (YAML names) the declaration `to` writes whose values
 * differ in `from`, a rule of the same identity. A field `to` leaves out is
 * the service's: never compared.
 */
export function changedFields(from: Rule, to: Rule): string[] {
  const a = fieldValues(from);
  const b = fieldValues(to);
  return kindOf(to).fields
    .filter((field) => field.updatable && b[field.name] !== undefined && !sameValue(a[field.name], b[field.name]))
    .map((field) => field.name);
}

/** Identity fields the declaration `want` writes that `live` (of the same `ruleKey`) holds otherwise: then it is another rule. */
export function identityDiffers(want: Rule, live: Rule): boolean {
  const a = fieldValues(want);
  const b = fieldValues(live);
  return kindOf(want).fields.some((field) => field.writtenIdentity && a[field.name] !== undefined && !sameValue(a[field.name], b[field.name]));
}

/** The live rule is what `want` declares: same identity, every written field equal, same comment. */
export function satisfies(live: Rule, want: Rule): boolean {
  return ruleKey(live) === ruleKey(want) && !identityDiffers(want, live) && changedFields(live, want).length === 0 && (live.comment ?? '') === (want.comment ?? '');
}

/** The fields `ruleKey` holds, by kind: neither updatable nor left to the service. */
function keyFieldsOf(kind: RuleKind): readonly string[] {
  let names = keyFields.get(kind);
  if (!names) {
    names = kind.fields.filter((field) => !field.updatable && !field.writtenIdentity).map((field) => field.name);
    keyFields.set(kind, names);
  }
  return names;
}

const keyFields = new WeakMap<RuleKind, readonly string[]>();

/**
 * Rules are immutable values; their key is computed once each. A plan at scale
 * asks for it from validation, the order of the desired state, recognition and the diff.
 */
const ruleKeys = new WeakMap<Rule, string>();

