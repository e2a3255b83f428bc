/** Rules (the service's hints) as the planner and readers of a plan see them. */
import type { RuleChange, AdoptRule, UpdateRule, CreateRule } from '../../model/rule-change.js';
import { onAction, type ByAction } from '../../model/by-action.js';
import type { ObjectCounts } from '../counts.js';
import { nestedKeys } from '../changed-keys.js';
import { ruleWriteKey } from '../../model/rule-fingerprint.js';
import { ruleApplication, toPlanRule } from './rule-document.js';
import type { PlanRuleChange } from './rule-document.js';
import type { BuiltInPlanClass, GuardedDeletes, UndeclaredObject } from './class.js';
import type { Source } from '../../model/source.js';
import { RULE_DIGEST } from './rule-digest.js';
import type { LiveRule, Rule } from '../../model/rule.js';

/** Rule deletes of one client the service takes in one call. */
export const RULE_DELETE_BATCH = 1000;

const padId = (id: number): string => String(id).padStart(16, '0');

/** The rule an in-place change writes, as the plan carries it: an update, or an adoption. */
function inPlace(change: UpdateRule | AdoptRule) {
  const { rule, live } = change;
  return {
    kind: 'rule', client: rule.client, application: ruleApplication(rule), id: live.id, ...sourceOf(change),
    fields: [...change.fields], ...nestedKeys(rule, live, change.fields), rule: toPlanRule(rule), before: toPlanRule(live),
  } as const;
}

function sourceOf(change: CreateRule | UpdateRule | AdoptRule) {
  const { file, line, col, name } = change.rule.source;
  return { file, line, col, name };
}

const where = (change: CreateRule | UpdateRule | AdoptRule): string => {
  const { source } = change.rule;
  return `${source.file}:${source.line}:${source.col}`;
};

/** Each action's part of the class, one cell per action (model/by-action.ts). */
const TO_PLAN: ByAction<RuleChange, PlanRuleChange> = {
  create: (change) => ({
    action: 'create', kind: 'rule', client: change.rule.client, application: ruleApplication(change.rule), ...sourceOf(change),
    ...(change.replaces && change.replaces.length > 0 ? { replaces: [...change.replaces] } : {}),
    ...(change.deleteFirst ? { delete_first: true } : {}),
    rule: toPlanRule(change.rule),
  }),
  update: (change) => ({ action: 'update', ...inPlace(change), ...(change.live.adopted ? { adopted: true } : {}) }),
  adopt: (change) => ({ action: 'adopt', ...inPlace(change) }),
  delete: (change) => ({
    action: 'delete', kind: 'rule', client: change.rule.client, application: ruleApplication(change.rule), id: change.rule.id,
    ...(change.rule.name !== undefined ? { name: change.rule.name } : {}), reason: change.reason, rule: toPlanRule(change.rule),
  }),
};

/** The live rule a change touches: none for a create. */
const TOUCHED: ByAction<RuleChange, number | undefined> = {
  create: () => undefined,
  update: (change) => change.live.id,
  adopt: (change) => change.live.id,
  delete: (change) => change.rule.id,
};

const COUNTS: ByAction<RuleChange, ObjectCounts> = {
  create: (change) => ((change.replaces?.length ?? 0) > 0 ? { replace: 1 } : { create: 1 }),
  update: () => ({ update: 1 }),
  adopt: () => ({ adopt: 1 }),
  // A replaced rule is counted by its replacement's create.
  delete: (change) => (change.reason === 'replaced' ? {} : { delete: 1 }),
};

const DESCRIBE: ByAction<RuleChange, string> = {
  create: (change) => `create rule ${change.rule.source.name} (${where(change)})`,
  update: (change) => `update rule ${change.rule.source.name} #${change.live.id} (${where(change)})`,
  adopt: (change) => `adopt rule ${change.rule.source.name} #${change.live.id} (${where(change)})`,
  delete: ({ rule }) => `delete rule ${rule.name !== undefined ? `${rule.name} ` : ''}#${rule.id} of client ${rule.client}`,
};

/** Calls a change takes on its own; deletes of one client share batched calls instead. */
const OWN_CALLS: ByAction<RuleChange, number> = { create: () => 1, update: () => 1, adopt: () => 1, delete: () => 0 };

const NONE: readonly number[] = [];

const NO_OBJECTS: readonly UndeclaredObject[] = [];

/*
 * The tables below are made once: a table written inline in a method was a
 * new object and four closures per change asked (the plan asks every change
 * for its order, calls, counts and guarded deletes).
 */

const FIRST_SOURCE: ByAction<RuleChange, Source | undefined> = {
  create: (c) => c.rule.source, update: () => undefined, adopt: () => undefined, delete: () => undefined,
};

const NOTHING_GUARDED: GuardedDeletes = { count: 0, moves: 0 };
const ONE_GUARDED: GuardedDeletes = { count: 1, moves: 0 };

const GUARDED: ByAction<RuleChange, GuardedDeletes> = {
  create: () => NOTHING_GUARDED, update: () => NOTHING_GUARDED, adopt: () => NOTHING_GUARDED,
  delete: (c) => (c.reason === 'not-declared' ? ONE_GUARDED : NOTHING_GUARDED),
};

const UNDECLARED: ByAction<RuleChange, readonly UndeclaredObject[]> = {
  create: () => NO_OBJECTS, update: () => NO_OBJECTS, adopt: () => NO_OBJECTS,
  delete: (c) => (c.reason === 'not-declared' ? [{ id: c.rule.id, ...(c.rule.name !== undefined ? { name: c.rule.name } : {}) }] : NO_OBJECTS),
};

/** Deletes that go in the client's batched calls. */
const BATCHED: ByAction<RuleChange, number> = { create: () => 0, update: () => 0, adopt: () => 0, delete: () => 1 };

const TAKES_OVER: ByAction<RuleChange, readonly number[]> = { create: (c) => c.replaces ?? NONE, update: () => NONE, adopt: () => NONE, delete: () => NONE };

const DELETES_FIRST: ByAction<RuleChange, readonly number[]> = {
  create: (c) => (c.deleteFirst ? c.replaces ?? NONE : NONE), update: () => NONE, adopt: () => NONE, delete: () => NONE,
};

const DELETED_IDS: ByAction<RuleChange, readonly number[]> = { create: () => NONE, update: () => NONE, adopt: () => NONE, delete: (c) => [c.rule.id] };

// No keyed diff: recognition and adoption diff the rules and the IP entries together (diff.ts).
export const RULES: BuiltInPlanClass<RuleChange, PlanRuleChange, Rule, LiveRule> = {
  digest: RULE_DIGEST,
  order: 0,
  noun: 'rule',
  objectLabel: ({ id }) => `rule #${id}`,

  client: (change) => change.rule.client,
  sortTail(change) {
    const id = onAction(change, TOUCHED);
    return id === undefined ? '' : padId(id);
  },
  firstSource: (change) => onAction(change, FIRST_SOURCE),
  toPlanChange: (change) => onAction(change, TO_PLAN),

  counts: (change) => onAction(change, COUNTS),
  guarded: (change) => onAction(change, GUARDED),
  undeclared: (change) => onAction(change, UNDECLARED),
  calls(changes) {
    const deletesByClient = new Map<number, number>();
    let calls = 0;
    for (const change of changes) {
      calls += onAction(change, OWN_CALLS);
      if (onAction(change, BATCHED) > 0) deletesByClient.set(change.rule.client, (deletesByClient.get(change.rule.client) ?? 0) + 1);
    }
    for (const n of deletesByClient.values()) calls += Math.ceil(n / RULE_DELETE_BATCH);
    return calls;
  },
  describe: (change) => onAction(change, DESCRIBE),
  takesOver: (change) => onAction(change, TAKES_OVER),
  deletesFirst: (change) => onAction(change, DELETES_FIRST),
  deletedIds: (change) => onAction(change, DELETED_IDS),
  declaredBy: (change, declared) => onAction<RuleChange, RuleChange | undefined>(change, {
    create: (c) => (declared(c.rule.source) ? c : undefined),
    update: (c) => (declared(c.rule.source) ? c : undefined),
    adopt: (c) => (declared(c.rule.source) ? c : undefined),
    delete: () => undefined,
  }),

  writeKey: (change) => `rule|${ruleWriteKey(change.rule)}`,
  writtenValues: () => [],
  without(change, heldIds) {
    const id = onAction(change, TOUCHED);
    return id !== undefined && heldIds.has(id) ? undefined : change;
  },
};
