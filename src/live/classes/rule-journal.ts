/** Rules in the write journal: one rule per event, under `rule`. */
import { listedRuleWriteKey, ruleWriteKey } from '../../model/rule-fingerprint.js';
import type { LiveRule } from '../../model/rule.js';
import type { JournalSide } from './class.js';

export const RULE_JOURNAL: JournalSide<LiveRule> = {
  events: { 'created': 'rule-created', 'create-intent': 'rule-create-intent', 'deleted': 'rule-deleted' },
  event: (kind, at, objects) => ({ kind, at, rule: objects[0] }),
  objects: (event) => [event.rule as LiveRule],
  writeKey: ruleWriteKey,
  listedWriteKey: listedRuleWriteKey,
  // Marked by an older Rampart, without a fingerprint: it is the create, as listed.
  sameId: (listed) => (listed.owner !== undefined && listed.fingerprint === undefined ? 'shown' : 'older'),
};
