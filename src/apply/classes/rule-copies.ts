/** Another writer's copies of the rules this run created (see apply/concurrent-copies.ts). */
import type { CopyFinder, CopyOptions, ConcurrentCopy } from '../copy-finder.js';
import { liveRuleFromHint } from '../../live/normalize-hint.js';
import { listedRuleWriteKey, ruleWriteKey } from '../../model/rule-fingerprint.js';
import type { RuleChange, CreateRule } from '../../model/rule-change.js';
import { onAction } from '../../model/by-action.js';
import { plainRule } from '../../model/rule.js';
import { ruleListing } from './rule-calls.js';

export function ruleCopyFinder(): CopyFinder<RuleChange> {
  /** Per client: write key → the id this run created it with (known even before the listing shows it). */
  const ruleKeys = new Map<number, Map<string, number | undefined>>();
  return {
    note(change, { id }) {
      // Only a create can leave a copy: an update or adoption rewrites one rule, a delete removes it.
      const created = (c: CreateRule) => {
        const { client } = c.rule;
        const keys = ruleKeys.get(client) ?? new Map<string, number | undefined>();
        ruleKeys.set(client, keys.set(ruleWriteKey(plainRule(c.rule)), id));
      };
      onAction(change, { create: created, update: () => undefined, adopt: () => undefined, delete: () => undefined });
    },
    async remove(options) {
      const removed: ConcurrentCopy[] = [];
      for (const [client, keys] of ruleKeys) {
        if (options.stop?.aborted) break;
        removed.push(...await ruleCopies(client, keys, options));
      }
      return removed;
    },
  };
}

async function ruleCopies(client: number, keys: ReadonlyMap<string, number | undefined>, options: CopyOptions): Promise<ConcurrentCopy[]> {
  const byKey = new Map<string, { id: number; name?: string }[]>();
  // This run's own copy counts whether or not the listing shows it yet.
  for (const [key, id] of keys) if (id !== undefined) byKey.set(key, [{ id }]);
  for (const hint of await options.reads.lastRead(ruleListing(client))) {
    const rule = liveRuleFromHint(hint);
    const key = rule && rule.owner === options.owner ? listedRuleWriteKey(rule) : undefined;
    if (key === undefined || !keys.has(key) || byKey.get(key)?.some((copy) => copy.id === hint.id)) continue;
    byKey.set(key, [...(byKey.get(key) ?? []), { id: hint.id, ...(rule?.name !== undefined ? { name: rule.name } : {}) }]);
  }
  const copies: ConcurrentCopy[] = [];
  for (const rules of byKey.values()) {
    const [first, ...others] = [...rules].sort((a, b) => a.id - b.id);
    if (!first) continue;
    for (const other of others) copies.push({ kind: 'rule', client, id: other.id, kept: first.id, ...(other.name !== undefined ? { name: other.name } : {}) });
  }
  if (copies.length > 0) await options.reads.api.deleteHints(client, copies.map((copy) => copy.id), options.stop ? { stopRetrying: options.stop } : {});
  return copies;
}
