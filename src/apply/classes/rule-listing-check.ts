/** What the rule listings must show after an apply's rule writes (see apply/settle.ts). */
import { liveRuleFromHint } from '../../live/normalize-hint.js';
import { listedRuleWriteKey, ruleWriteKey } from '../../model/rule-fingerprint.js';
import { plainRule } from '../../model/rule.js';
import type { RuleChange, AdoptRule, UpdateRule } from '../../model/rule-change.js';
import { onAction } from '../../model/by-action.js';
import type { ListingReads } from '../listing-reads.js';
import type { ListingCheck } from '../listing-check.js';
import { ruleListing } from './rule-calls.js';

interface ClientExpectations {
  /**
   * A created rule: its id listed, or a lower id of the same write key (the
   * copy another writer of the owner made first, which concurrent-copies.ts
   * keeps when it deletes this one).
   */
  readonly ids: { readonly id: number; readonly key: string }[];
  /** Write keys listed: what was written, not its identity (a rule stored differently is still found). */
  readonly keys: string[];
  readonly gone: number[];
}

export function ruleListingCheck(): ListingCheck<RuleChange> {
  const byClient = new Map<number, ClientExpectations>();
  const of = (client: number): ClientExpectations => {
    let expected = byClient.get(client);
    if (!expected) byClient.set(client, (expected = { ids: [], keys: [], gone: [] }));
    return expected;
  };
  return {
    expect(change, { id }) {
      const expected = of(change.rule.client);
      // An update or adoption is listed with the mark it wrote: the listing shows the new version.
      const rewritten = (c: UpdateRule | AdoptRule) => expected.keys.push(ruleWriteKey(plainRule(c.rule)));
      onAction(change, {
        create: (c) => (id !== undefined ? expected.ids.push({ id, key: ruleWriteKey(plainRule(c.rule)) }) : expected.keys.push(ruleWriteKey(plainRule(c.rule)))),
        update: rewritten,
        adopt: rewritten,
        delete: (c) => expected.gone.push(c.rule.id),
      });
    },
    async shown(reads: ListingReads, owner: string) {
      for (const [client, expected] of byClient) {
        const hints = await reads.read(ruleListing(client));
        const listedIds = new Set(hints.map((hint) => hint.id));
        const lowestOfKey = new Map<string, number>();
        for (const hint of hints) {
          const rule = liveRuleFromHint(hint);
          const key = rule && rule.owner === owner ? listedRuleWriteKey(rule) : undefined;
          if (key !== undefined) lowestOfKey.set(key, Math.min(lowestOfKey.get(key) ?? hint.id, hint.id));
        }
        if (expected.ids.some(({ id, key }) => !listedIds.has(id) && !((lowestOfKey.get(key) ?? Infinity) < id))) return false;
        if (expected.keys.some((key) => !lowestOfKey.has(key))) return false;
        if (expected.gone.some((id) => listedIds.has(id))) return false;
      }
      return true;
    },
  };
}

