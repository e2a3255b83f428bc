/** Plan blocks of rule changes: one per rule, old → new attributes side by side. */
import { groupByAction, onAction, type ByAction } from '../../../model/by-action.js';
import type { PlanRuleChange, PlanDeleteRule, PlanRule } from '../../classes/rule-document.js';
import { formatCondition, formatPoint } from '../../../model/rule-rewrites.js';
import type { FieldValue } from '../../../rules/field.js';
import { isKindName, ruleKind } from '../../../rules/registry.js';
import { compareAttributes, NONE } from '../attributes.js';
import { ids, type ChangeBlock } from '../change-block.js';

function ruleTitle(name: string | undefined, id: number | undefined, rule: PlanRule): string {
  const parts = ['rule', ...(name !== undefined ? [name] : []), ...(id !== undefined ? [`#${id}`] : [])];
  return `${parts.join(' ')} (${rule.type})`;
}

/** What every rule block shares: where it is, its impact. */
function blockBase(c: PlanRuleChange) {
  return { kind: 'rule', client: c.client, application: c.application, count: 1, ...(c.impact ? { impact: c.impact } : {}) } as const;
}

/** The declaring line of a rule a plan keeps. */
function declared(c: Exclude<PlanRuleChange, PlanDeleteRule>) {
  return [{ file: c.file, line: c.line, col: c.col }];
}

/**
 * A rule's block by its change's action. `replaced` holds the deletes a
 * create folds in (a replacement); `folded` those it did, which have no block.
 */
function blockTable(replaced: ReadonlyMap<number, PlanDeleteRule>, folded: ReadonlySet<number>): ByAction<PlanRuleChange, ChangeBlock | undefined> {
  return {
    create: (c) => {
      const old = (c.replaces ?? []).map((id) => replaced.get(id)).find((d) => d !== undefined);
      const replacing = (c.replaces?.length ?? 0) > 0;
      const order = c.delete_first ? ', deleted first (the service keeps one per scope)' : ', deleted after the create';
      return {
        ...blockBase(c), action: replacing ? 'replace' : 'create', sign: replacing ? '-/+' : '+',
        title: ruleTitle(c.name, undefined, c.rule), sources: declared(c),
        detail: replacing ? [`replaces ${ids(c.replaces ?? [])}${order}`] : [],
        attributes: compareAttributes(ruleAttributes(c.rule), old ? ruleAttributes(old.rule, c.rule) : undefined),
      };
    },
    adopt: (c) => ({
      ...blockBase(c), action: 'adopt', sign: '@', title: ruleTitle(c.name, c.id, c.rule), detail: ['owner mark added'], sources: declared(c),
      attributes: compareAttributes(ruleAttributes(c.rule), ruleAttributes(c.before, c.rule)),
    }),
    update: (c) => ({
      ...blockBase(c), action: 'update', sign: '~', title: ruleTitle(c.name, c.id, c.rule), detail: [], sources: declared(c),
      attributes: compareAttributes(ruleAttributes(c.rule), ruleAttributes(c.before, c.rule)),
    }),
    delete: (c) => folded.has(c.id) ? undefined : {
      ...blockBase(c), action: 'delete', sign: '-', title: ruleTitle(c.name, c.id, c.rule), detail: [c.reason], sources: [],
      attributes: compareAttributes(ruleAttributes(c.rule)),
      count: c.reason === 'replaced' ? 0 : 1,
    },
  };
}

/** One block per rule change, in plan order; a replaced rule's delete is folded into its replacement's create. */
export function ruleBlocks(changes: readonly PlanRuleChange[]): ChangeBlock[] {
  const of = groupByAction(changes);
  const replaced = new Map(of('delete').filter((d) => d.reason === 'replaced').map((d) => [d.id, d]));
  const folded = new Set(of('create').flatMap((c) => c.replaces ?? []).filter((id) => replaced.has(id)));
  const table = blockTable(replaced, folded);
  return changes.map((c) => onAction(c, table)).filter((block) => block !== undefined);
}

/**
 * Rule attributes: `when` (the application is shown apart), `point`, the
 * kind's fields in registry order (a nested value key by key:
 * `threshold.count`), `comment`. For the old side of a change, `declared` is
 * the new rule: a field it leaves out is the service's and is not shown.
 */
export function ruleAttributes(rule: PlanRule, declared?: PlanRule): Map<string, string> {
  const out = new Map<string, string>();
  const when = rule.conditions.filter((c) => !(c.point.length === 1 && c.point[0] === 'instance'));
  if (when.length > 0) out.set('when', when.map((c) => formatCondition({ point: c.point, type: c.match, value: c.value })).join('; '));
  const kind = isKindName(rule.type) ? ruleKind(rule.type) : undefined;
  if (kind === undefined || kind.point !== 'none') {
    out.set('point', rule.point.length > 0 ? `[${rule.point.map(formatPoint).join(', ')}]` : NONE);
  }
  const formatted = new Set<string>();
  const shown = (name: string) => declared === undefined || declared.fields[name] !== undefined;
  for (const field of kind?.fields ?? []) {
    const value = rule.fields[field.name];
    formatted.add(field.name);
    if (value === undefined || !shown(field.name)) continue;
    for (const [path, text] of field.show(value as never)) out.set(`${field.name}${path}`, text);
  }
  // A field this version's registry does not know (a plan from a newer version) still shows.
  for (const [name, value] of Object.entries(rule.fields)) if (!formatted.has(name) && shown(name)) out.set(name, formatUnknown(value));
  if (rule.comment !== undefined) out.set('comment', JSON.stringify(rule.comment));
  return out;
}

function formatUnknown(value: FieldValue): string {
  return typeof value === 'object' || typeof value === 'string' ? JSON.stringify(value) : String(value);
}
