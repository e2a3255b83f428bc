/** Rules as the policy language declares them: `mode` and `rules` of a document (rule-compile.ts). */
import { compareStrings } from '../../model/compare.js';
import { ruleKey, type DesiredRule } from '../../model/rule.js';
import type { PolicyClass } from './class.js';
import { compileRules } from './rule-compile.js';
import { ruleConflicts } from './rule-conflicts.js';

export const RULE_POLICY: PolicyClass<DesiredRule> = {
  compile: compileRules,
  // By client, then identity, then file.
  sort: (rules) => rules
    .map((rule) => ({ rule, key: ruleKey(rule) }))
    .sort((a, b) => a.rule.client - b.rule.client || compareStrings(a.key, b.key) || compareStrings(a.rule.source.file, b.rule.source.file))
    .map((x) => x.rule),
  conflicts: ruleConflicts,
};
