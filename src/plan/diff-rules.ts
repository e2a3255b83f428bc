import { groupByAction, mapAction, onAction } from '../model/by-action.js';
import type { RuleChange, DeleteRule, CreateRule } from '../model/rule-change.js';
import { changedFields, fieldValues, identityDiffers, kindOf, ruleKey, shareRuleKey, type DesiredRule, type LiveRule, type Rule } from '../model/rule.js';
import { sameValue } from '../rules/field.js';
import type { Conflict } from './adoption.js';
import { compareSources, isPlaceholder, ownerSuffix, type Note } from './notes.js';
import { appendTo } from './append.js';
import { getOrMake } from '../model/maps.js';
import { ruleApplication } from './classes/rule-document.js';
import { applicationSortKey } from './application.js';

export interface RuleDiff {
  readonly changes: RuleChange[];
  readonly unchanged: number;
  readonly notes: Note[];
  /** Live rules carrying our owner mark. */
  readonly owned: number;
  /** Owned rules to go that a client cannot delete: left in place, no call made. */
  readonly kept: readonly LiveRule[];
  /** Declarations that would replace a rule the service will not delete: refused, with the way out. */
  readonly conflicts: readonly Conflict[];
}

interface Bucket {
  /** The identity's text as the first rule of it made it: the rules joined to it share that copy. */
  readonly key: string;
  desired: DesiredRule[];
  owned: LiveRule[];
  foreign: LiveRule[];
}

/** Every bucket's sides start as this list: frozen, so a push onto it would throw, not fill every bucket. */
const NO_RULES = Object.freeze([]) as never[];

/** How a change to an updatable field or the comment is made. */
export type RuleUpdates = 'update' | 'replace';

/** Updatable fields and the comment that differ; empty when `live` is the declaration. */
export function differences(want: Rule, live: Rule): string[] {
  const fields = changedFields(live, want);
  return (want.comment ?? '') === (live.comment ?? '') ? fields : [...fields, 'comment'];
}

/**
 * Rules by identity (`ruleKey`: kind, conditions, point, the fields that
 * cannot change in place). An owned rule of the declaration's identity whose
 * updatable fields or comment differ is updated in place (`PUT`), or, with
 * `updates: 'replace'`, replaced by a create and a delete. Only rules whose
 * owner is `owner` are ever updated or deleted.
 */
export function diffRules(desired: readonly DesiredRule[], live: readonly LiveRule[], owner: string, updates: RuleUpdates = 'update'): RuleDiff {
  const buckets = new Map<string, Bucket>();
  // Buckets start with the shared empty list: `added` replaces it by a list of one, and most sides stay empty.
  const bucket = (key: string): Bucket => getOrMake(buckets, key, (): Bucket => ({ key, desired: NO_RULES, owned: NO_RULES, foreign: NO_RULES }));
  for (let i = 0; i < desired.length; i++) {
    const rule = desired[i] as DesiredRule;
    const b = bucket(ruleKey(rule));
    b.desired = added(b.desired, rule);
  }
  let owned = 0;
  for (let i = 0; i < live.length; i++) {
    const rule = live[i] as LiveRule;
    const b = bucket(ruleKey(rule));
    shareRuleKey(rule, b.key);
    if (rule.owner === owner) {
      // The mass-delete guard's base: what a plan could delete. Counters and adopted default controls never are.
      if (!undeletable(rule)) owned++;
      b.owned = added(b.owned, rule);
    } else {
      b.foreign = added(b.foreign, rule);
    }
  }

  const changes: RuleChange[] = [];
  const notes: Note[] = [];
  const kept: LiveRule[] = [];
  let unchanged = 0;
  const drop = (rules: readonly LiveRule[], reason: DeleteRule['reason']): void => {
    for (const rule of rules) {
      // A journal placeholder (our create, not listed yet) is no object of the service: nothing to delete.
      if (isPlaceholder(rule)) continue;
      if (undeletable(rule)) kept.push(rule);
      else changes.push({ action: 'delete', kind: 'rule', rule, reason });
    }
  };

  for (const b of buckets.values()) {
    // Most sides hold one rule or none: only longer ones are sorted or filtered (a call and a list each, per bucket).
    // Listed rules first: one of them is kept rather than a placeholder standing for it.
    if (b.owned.length > 1) b.owned.sort((x, y) => Number(isPlaceholder(x)) - Number(isPlaceholder(y)) || x.id - y.id);
    if (b.foreign.length > 1) b.foreign.sort((x, y) => x.id - y.id);
    // Two declarations of one rule are a validation error upstream; be safe anyway.
    if (b.desired.length > 1) b.desired.sort((x, y) => compareSources(x.source, y.source));
    const want = b.desired[0];
    if (!want) {
      drop(b.owned, 'not-declared');
      continue;
    }
    // An identity field the declaration writes and a live rule holds otherwise makes that rule another one.
    if (b.owned.length > 0) {
      const other = b.owned.filter((r) => identityDiffers(want, r));
      if (other.length > 0) {
        drop(other, 'not-declared');
        b.owned = b.owned.filter((r) => !other.includes(r));
      }
    }
    if (b.foreign.length > 0) b.foreign = b.foreign.filter((r) => !identityDiffers(want, r));
    const exact = b.owned.find((r) => differences(want, r).length === 0);
    if (exact) {
      unchanged++;
      drop(b.owned.filter((r) => r !== exact), 'duplicate');
      continue;
    }
    const foreign = b.foreign.find((r) => changedFields(r, want).length === 0);
    if (foreign) {
      // Equal to a desired rule: creating ours would duplicate it on the server.
      unchanged++;
      notes.push({
        level: 'info', kind: 'rule', client: want.client, source: want.source, id: foreign.id,
        message: `satisfied by unmanaged id ${foreign.id}${ownerSuffix(foreign.owner)}`,
      });
      drop(b.owned, 'duplicate');
      continue;
    }
    const [unmanaged] = b.foreign;
    if (unmanaged) {
      notes.push({
        level: 'warning', kind: 'rule', client: want.client, source: want.source, id: unmanaged.id,
        message: `unmanaged id ${unmanaged.id}${ownerSuffix(unmanaged.owner)} is the same rule with other values (${differences(want, unmanaged).join(', ')}); left as is`,
      });
    }
    const [old, ...extra] = b.owned;
    drop(extra, 'duplicate');
    if (old && !isPlaceholder(old) && updates === 'update') {
      changes.push({ action: 'update', kind: 'rule', rule: want, live: old, fields: differences(want, old) });
      continue;
    }
    const replaced = old && !isPlaceholder(old) ? old : undefined;
    const create: CreateRule = replaced
      ? { action: 'create', kind: 'rule', rule: want, replaces: [replaced.id], ...(kindOf(want).onePerScope ? { deleteFirst: true } : {}) }
      : { action: 'create', kind: 'rule', rule: want };
    changes.push(create);
    if (replaced) changes.push({ action: 'delete', kind: 'rule', rule: replaced, reason: 'replaced' });
  }
  const refused = refuseKeptReplacements(pairReplacements(changes), kept);
  return { changes: refused.changes, unchanged, notes, owned, kept, conflicts: refused.conflicts };
}

/**
 * A create that would replace an adopted rule the service made and will not
 * delete (a default abuse control whose `mode`, which cannot change in place,
 * is changed) is refused rather than made: the new control would run beside
 * the old one, which stays active, blocking as before. The conflict names the
 * way out.
 */
function refuseKeptReplacements(changes: readonly RuleChange[], kept: readonly LiveRule[]): { changes: RuleChange[]; conflicts: Conflict[] } {
  const slot = (client: number, application: string, name: string | undefined) => JSON.stringify([client, application, name]);
  const adopted = new Map<string, LiveRule>();
  for (const rule of kept) {
    if (kindOf(rule).undeletable === 'adopted' && rule.name !== undefined) adopted.set(slot(rule.client, applicationSortKey(ruleApplication(rule)), rule.name), rule);
  }
  if (adopted.size === 0) return { changes: [...changes], conflicts: [] };
  const conflicts: Conflict[] = [];
  const remaining = mapAction(changes, 'create', (change) => {
    const old = adopted.get(slot(change.rule.client, applicationSortKey(ruleApplication(change.rule)), change.rule.source.name));
    if (!old) return change;
    const identity = kindOf(old).fields.filter((field) => !field.updatable && !sameValue(fieldValues(old)[field.name], fieldValues(change.rule)[field.name]));
    const was = identity.map((field) => `${field.name}: ${field.format(fieldValues(old)[field.name] as never)}`).join(', ');
    conflicts.push({
      kind: 'rule', client: change.rule.client, source: change.rule.source, id: old.id, adoptable: false,
      message: `${change.rule.kind} #${old.id} is the service's own and cannot be deleted, and ${identity.map((f) => f.name).join(', ') || 'its identity'} cannot change in place: ` +
        `a new one would run beside it, which stays active as it is. Keep ${was || 'it as it is'} in the policy; to change it, edit or disable the control in the console`,
    });
    return undefined;
  });
  return { changes: remaining, conflicts };
}

/**
 * `list` with `item` added. An empty list is replaced by a list of one: pushed
 * to, it would grow room for 17 (most buckets hold one rule a side).
 */
function added<T>(list: T[], item: T): T[] {
  if (list.length === 0) return [item];
  list.push(item);
  return list;
}

/** A rule the service will not let a client delete: a counter, or an adopted rule of a kind the service makes itself. */
function undeletable(rule: LiveRule): boolean {
  const { undeletable: which } = kindOf(rule);
  return which === 'always' || (which === 'adopted' && rule.adopted === true);
}

/**
 * A rule whose identity changed (its point, conditions, attack, regex, mode)
 * is a new rule by content, and its old copy is no longer declared. The mark
 * names the rule the copy was created from: an undeclared owned rule whose
 * name a create of the same client and application carries is that rule's
 * old version. The pair becomes a replacement, so the old copy goes only once
 * the new one exists, and never when its create fails.
 */
function pairReplacements(changes: readonly RuleChange[]): RuleChange[] {
  const of = groupByAction(changes);
  // Only a named rule no longer declared can be an old version: without one, no create's slot is worth building.
  if (!of('delete').some((change) => change.reason === 'not-declared' && change.rule.name !== undefined)) return [...changes];
  const creates = new Map<string, CreateRule[]>();
  const slot = (client: number, application: string, name: string) => JSON.stringify([client, application, name]);
  for (const change of of('create')) {
    const key = slot(change.rule.client, applicationSortKey(ruleApplication(change.rule)), change.rule.source.name);
    appendTo(creates, key, change);
  }
  const extra = new Map<CreateRule, number[]>();
  const paired = new Set<DeleteRule>();
  for (const change of of('delete')) {
    if (change.reason !== 'not-declared' || change.rule.name === undefined) continue;
    const matches = creates.get(slot(change.rule.client, applicationSortKey(ruleApplication(change.rule)), change.rule.name)) ?? [];
    for (const create of matches) appendTo(extra, create, change.rule.id);
    if (matches.length > 0) paired.add(change);
  }
  if (paired.size === 0) return [...changes];
  return changes.map((change) => onAction<RuleChange, RuleChange>(change, {
    create: (create) => {
      const ids = extra.get(create);
      return ids ? { ...create, replaces: [...(create.replaces ?? []), ...ids].sort((a, b) => a - b) } : create;
    },
    delete: (deleted) => (paired.has(deleted) ? { ...deleted, reason: 'replaced' } : deleted),
    update: (update) => update,
    adopt: (adoption) => adoption,
  }));
}
