import type { Change, CreateRule, DeleteRule } from '../model/change.js';
import { ruleKey, type DesiredRule, type LiveRule } from '../model/rule.js';
import { compareSources, isPlaceholder, ownerSuffix, type Note } from './notes.js';
import { applicationSortKey, ruleApplication } from './objects.js';

export interface RuleDiff {
  readonly changes: Change[];
  readonly unchanged: number;
  readonly notes: Note[];
  /** Live rules carrying our owner mark. */
  readonly owned: number;
}

interface Bucket {
  desired: DesiredRule[];
  owned: LiveRule[];
  foreign: LiveRule[];
}

/**
 * Rules by identity (`ruleKey`, which leaves the comment out). Hints cannot be
 * updated in place, so a comment change is a create of the new rule followed
 * by the delete of the old one. Only rules whose owner is `owner` are deleted.
 */
export function diffRules(desired: readonly DesiredRule[], live: readonly LiveRule[], owner: string): RuleDiff {
  const buckets = new Map<string, Bucket>();
  const bucket = (key: string): Bucket => {
    let b = buckets.get(key);
    if (!b) {
      b = { desired: [], owned: [], foreign: [] };
      buckets.set(key, b);
    }
    return b;
  };
  for (const rule of desired) bucket(ruleKey(rule)).desired.push(rule);
  let owned = 0;
  for (const rule of live) {
    if (rule.owner === owner) {
      owned++;
      bucket(ruleKey(rule)).owned.push(rule);
    } else {
      bucket(ruleKey(rule)).foreign.push(rule);
    }
  }

  const changes: Change[] = [];
  const notes: Note[] = [];
  let unchanged = 0;
  const drop = (rules: readonly LiveRule[], reason: DeleteRule['reason']): void => {
    // A journal placeholder (our create, not listed yet) is no object of the service: nothing to delete.
    for (const rule of rules) if (!isPlaceholder(rule)) changes.push({ action: 'delete', kind: 'rule', rule, reason });
  };

  for (const b of buckets.values()) {
    // Listed rules first: one of them is kept rather than a placeholder standing for it.
    b.owned.sort((x, y) => Number(isPlaceholder(x)) - Number(isPlaceholder(y)) || x.id - y.id);
    b.foreign.sort((x, y) => x.id - y.id);
    // Two declarations of one rule are a validation error upstream; be safe anyway.
    const want = b.desired.sort((x, y) => compareSources(x.source, y.source))[0];
    if (!want) {
      drop(b.owned, 'not-declared');
      continue;
    }
    const exact = b.owned.find((r) => r.comment === want.comment);
    if (exact) {
      unchanged++;
      drop(b.owned.filter((r) => r !== exact), 'duplicate');
      continue;
    }
    const foreign = b.foreign[0];
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
    const [old, ...extra] = b.owned;
    const create: CreateRule = old
      ? { action: 'create', kind: 'rule', rule: want, replaces: [old.id] }
      : { action: 'create', kind: 'rule', rule: want };
    changes.push(create);
    if (old) changes.push({ action: 'delete', kind: 'rule', rule: old, reason: 'replaced' });
    drop(extra, 'duplicate');
  }
  return { changes: pairReplacements(changes), unchanged, notes, owned };
}

/**
 * A rule whose identity changed (its point, conditions, attack, regex, mode)
 * is a new rule by content, and its old copy is no longer declared. The mark
 * names the rule the copy was created from: an undeclared owned rule whose
 * name a create of the same client and application carries is that rule's
 * old version. The pair becomes a replacement, so the old copy goes only once
 * the new one exists, and never when its create fails.
 */
function pairReplacements(changes: readonly Change[]): Change[] {
  const creates = new Map<string, CreateRule[]>();
  const slot = (client: number, application: string, name: string) => JSON.stringify([client, application, name]);
  for (const change of changes) {
    if (change.kind !== 'rule' || change.action !== 'create') continue;
    const key = slot(change.rule.client, applicationSortKey(ruleApplication(change.rule)), change.rule.source.name);
    creates.set(key, [...(creates.get(key) ?? []), change]);
  }
  const extra = new Map<CreateRule, number[]>();
  const paired = new Set<DeleteRule>();
  for (const change of changes) {
    if (change.kind !== 'rule' || change.action !== 'delete' || change.reason !== 'not-declared' || change.rule.name === undefined) continue;
    const matches = creates.get(slot(change.rule.client, applicationSortKey(ruleApplication(change.rule)), change.rule.name)) ?? [];
    for (const create of matches) extra.set(create, [...(extra.get(create) ?? []), change.rule.id]);
    if (matches.length > 0) paired.add(change);
  }
  if (paired.size === 0) return [...changes];
  return changes.map((change): Change => {
    if (change.kind !== 'rule') return change;
    if (change.action === 'delete') return paired.has(change) ? { ...change, reason: 'replaced' } : change;
    const ids = extra.get(change);
    return ids ? { ...change, replaces: [...(change.replaces ?? []), ...ids].sort((a, b) => a - b) } : change;
  });
}
