/** Rules (the service's hints) as the planner and readers of a plan see them. */
import type { RuleChange } from '../../model/change.js';
import { nestedKeys } from '../changed-keys.js';
import { ruleWriteKey } from '../../model/fingerprint.js';
import { ruleApplication, toPlanRule } from '../objects.js';
import type { PlanAdoptRule, PlanCreateRule, PlanDeleteRule, PlanUpdateRule } from '../types.js';
import type { PlanClass } from './class.js';

export type PlanRuleChange = PlanCreateRule | PlanUpdateRule | PlanDeleteRule | PlanAdoptRule;

/** Rule deletes of one client the service takes in one call. */
export const RULE_DELETE_BATCH = 1000;

const padId = (id: number): string => String(id).padStart(16, '0');

export const RULES: PlanClass<RuleChange, PlanRuleChange> = {
  order: 0,
  noun: 'rule',
  objectLabel: ({ id }) => `rule #${id}`,

  client: (change) => change.rule.client,
  sortTail(change) {
    if (change.action === 'create') return '';
    return padId(change.action === 'delete' ? change.rule.id : change.live.id);
  },
  firstSource: (change) => (change.action === 'create' ? change.rule.source : undefined),

  toPlanChange(change) {
    const base = { kind: 'rule', client: change.rule.client, application: ruleApplication(change.rule) } as const;
    if (change.action === 'delete') {
      return {
        action: 'delete', ...base, id: change.rule.id, ...(change.rule.name !== undefined ? { name: change.rule.name } : {}),
        reason: change.reason, rule: toPlanRule(change.rule),
      };
    }
    const { rule } = change;
    const source = { file: rule.source.file, line: rule.source.line, col: rule.source.col, name: rule.source.name };
    if (change.action === 'create') {
      return {
        action: 'create', ...base, ...source,
        ...(change.replaces && change.replaces.length > 0 ? { replaces: [...change.replaces] } : {}),
        ...(change.deleteFirst ? { delete_first: true } : {}),
        rule: toPlanRule(rule),
      };
    }
    const { live } = change;
    const inPlace = {
      ...base, id: live.id, ...source, fields: [...change.fields], ...nestedKeys(rule, live, change.fields),
      rule: toPlanRule(rule), before: toPlanRule(live),
    };
    if (change.action === 'adopt') return { action: 'adopt', ...inPlace };
    return { action: 'update', ...inPlace, ...(live.adopted ? { adopted: true } : {}) };
  },

  counts(change) {
    if (change.action === 'create') return (change.replaces?.length ?? 0) > 0 ? { replace: 1 } : { create: 1 };
    if (change.action === 'delete') return change.reason === 'replaced' ? {} : { delete: 1 };
    return { [change.action]: 1 };
  },
  guarded: (change) => ({ count: change.action === 'delete' && change.reason === 'not-declared' ? 1 : 0, moves: 0 }),
  calls(changes) {
    const deletesByClient = new Map<number, number>();
    let calls = 0;
    for (const c of changes) {
      if (c.action === 'delete') deletesByClient.set(c.rule.client, (deletesByClient.get(c.rule.client) ?? 0) + 1);
      else calls++;
    }
    for (const n of deletesByClient.values()) calls += Math.ceil(n / RULE_DELETE_BATCH);
    return calls;
  },
  describe(change) {
    if (change.action === 'delete') {
      const { rule } = change;
      return `delete rule ${rule.name !== undefined ? `${rule.name} ` : ''}#${rule.id} of client ${rule.client}`;
    }
    const { source } = change.rule;
    const where = `${source.file}:${source.line}:${source.col}`;
    if (change.action === 'create') return `create rule ${source.name} (${where})`;
    return `${change.action} rule ${source.name} #${change.live.id} (${where})`;
  },
  takesOver: (change) => (change.action === 'create' ? change.replaces ?? [] : []),
  deletesFirst: (change) => (change.action === 'create' && change.deleteFirst ? change.replaces ?? [] : []),
  deletedIds: (change) => (change.action === 'delete' ? [change.rule.id] : []),

  writeKey: (change) => `rule|${ruleWriteKey(change.rule)}`,
  writtenValues: () => [],
  without(change, heldIds) {
    const id = change.action === 'delete' ? change.rule.id : change.action === 'create' ? undefined : change.live.id;
    return id !== undefined && heldIds.has(id) ? undefined : change;
  },
};
