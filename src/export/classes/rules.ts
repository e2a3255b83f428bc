/**
 * Rules as `rampart export` writes them: placed by their instance condition,
 * one per identity, written under `rules` (a lone unconditional mode rule as
 * the file's `mode`), read back by identity and content.
 */
import type { Node } from 'yaml';
import { compareStrings } from '../../model/compare.js';
import { describeRewrites } from '../../model/rewrites.js';
import { ruleRewrites } from '../../model/rule-rewrites.js';
import { fieldValues, kindOf, ruleKey, satisfies, type Condition, type DesiredRule, type LiveRule, type Rule } from '../../model/rule.js';
import { appendTo } from '../../plan/append.js';
import { sameValue } from '../../rules/field.js';
import { KIND_NAMES } from '../../rules/registry.js';
import { cleanText } from '../clean-text.js';
import { assignNames, contentHash, withMarkedNames } from '../names.js';
import { ownershipSkip, preference } from '../ownership.js';
import type { Placed, Scope } from '../types.js';
import type { ClassSkip, ExportClass } from './class.js';

const APP_ID = /^[1-9]\d{0,15}$/;
/** Rules by kind in the registry's order, so an export reads like the reference. */
const KIND_ORDER = new Map<string, number>(KIND_NAMES.map((name, i) => [name, i]));

export const RULE_EXPORT: ExportClass<LiveRule, DesiredRule, 'rules'> = {
  counted: 'rules',
  handle: (rule) => ({ id: rule.id }),

  select(rules, options) {
    const skipped: ClassSkip[] = [];
    const candidates: Placed<LiveRule>[] = [];
    for (const rule of rules) {
      const own = ownershipSkip(rule.owner, options);
      if (own) {
        skipped.push({ id: rule.id, ...own });
        continue;
      }
      const scope = ruleScope(rule);
      if (typeof scope === 'string') {
        skipped.push({ id: rule.id, reason: 'unmappable', detail: scope });
        continue;
      }
      candidates.push({ scope, live: rule });
    }
    candidates.sort((a, b) => preference(a.live, b.live));

    const byKey = new Map<string, Placed<LiveRule>>();
    const placed: Placed<LiveRule>[] = [];
    for (const candidate of candidates) {
      const rule = candidate.live;
      const key = ruleKey(rule);
      const first = byKey.get(key);
      if (first) {
        // One identity can be declared once: an exact copy is a duplicate, other values a conflict.
        const differences = ruleRewrites(first.live, rule).filter((r) => r.field !== 'comment');
        skipped.push(differences.length === 0
          ? { id: rule.id, reason: 'duplicate', detail: `the same rule as id ${first.live.id}` }
          : { id: rule.id, reason: 'conflict', detail: `the same ${rule.kind} rule as id ${first.live.id} with other values (${describeRewrites(differences)})` });
        continue;
      }
      byKey.set(key, candidate);
      placed.push(candidate);
    }
    return { placed: placed.sort((a, b) => a.live.id - b.live.id), skipped };
  },

  render(rules, nodes) {
    const sections: Record<string, unknown> = {};
    // Rules in a stable order: by type, then content (names derive from content too).
    const sorted = [...rules]
      .map((rule) => ({ rule, hash: contentHash(rule) }))
      .sort((a, b) => (KIND_ORDER.get(a.rule.kind) ?? 0) - (KIND_ORDER.get(b.rule.kind) ?? 0) || compareStrings(a.hash, b.hash) || compareStrings(a.rule.comment ?? '', b.rule.comment ?? ''))
      .map((x) => x.rule);
    const modeOnly = sorted.filter((r) => r.kind === 'mode' && userConditions(r).length === 0 && !cleanText(r.comment));
    const shorthand = modeOnly.length === 1 && modeOnly[0]?.kind === 'mode' ? modeOnly[0] : undefined;
    if (shorthand) sections.mode = shorthand.fields.mode;
    const listed = sorted.filter((r) => r !== shorthand);
    const names = withMarkedNames(listed, assignNames(listed.map((rule) => ({ ...rule, comment: cleanText(rule.comment) }))));
    if (listed.length > 0) {
      sections.rules = listed.map((rule, i) => {
        const node = nodes.block(ruleSpec(rule, names[i] as string, nodes.flow));
        if (i > 0) node.spaceBefore = true;
        return node;
      });
    }
    return sections;
  },

  readsBack(desired) {
    const byKey = new Map<string, Rule[]>();
    for (const rule of desired) appendTo(byKey, ruleKey(rule), rule);
    return (rule) => {
      const live = { ...rule, comment: cleanText(rule.comment) };
      return (byKey.get(ruleKey(live)) ?? []).some((want) => satisfies(live, want));
    };
  },
  lostDetail: 'the policy format cannot express this rule exactly',
};

/** The file a rule goes into, from its instance condition; or why no file can hold it. */
export function ruleScope(rule: LiveRule): Scope | string {
  const instances = rule.conditions.filter((c) => c.point[0] === 'instance');
  if (instances.length === 0) return { kind: 'all' };
  if (instances.length > 1) {
    return `it has ${instances.length} instance conditions (${instances.map((c) => c.value).join(', ')}); a policy file gives a rule exactly one application or none`;
  }
  const value = instances[0]?.value ?? '';
  if (!APP_ID.test(value)) return `its instance condition "${value}" is not an application id`;
  return { kind: 'apps', apps: [Number(value)] };
}

function userConditions(rule: LiveRule): Condition[] {
  return rule.conditions.filter((c) => c.point[0] !== 'instance');
}

/**
 * A live rule as written: its kind's fields where they differ from what a
 * rule that leaves them out gets (so the file stays short and plans empty),
 * point, conditions.
 */
function ruleSpec(rule: LiveRule, name: string, flow: (value: unknown) => Node): Record<string, unknown> {
  const spec: Record<string, unknown> = { name, type: rule.kind };
  const values = fieldValues(rule);
  for (const field of kindOf(rule).fields) {
    const value = values[field.name];
    const leftOut = field.absentIs ?? field.serviceDefault;
    if (value === undefined || (!field.required && leftOut !== undefined && sameValue(value, leftOut))) continue;
    const written = field.written(value as never);
    spec[field.name] = typeof written === 'object' && written !== null ? flow(written) : written;
  }
  if (rule.point.length > 0) spec.point = flow(rule.point);
  const when = userConditions(rule);
  if (when.length > 0) spec.when = when.map((c) => flow(conditionSpec(c)));
  const comment = cleanText(rule.comment);
  if (comment !== undefined) spec.comment = comment;
  return spec;
}

function conditionSpec(condition: Condition): Record<string, unknown> {
  if (condition.type === 'absent') return { point: condition.point, absent: true };
  return { point: condition.point, [condition.type]: condition.value ?? '' };
}
