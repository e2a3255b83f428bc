/** A rule change as the impact sees it (class.ts). */
import { onAction, type ByAction } from '../../model/by-action.js';
import { kindOf, type Rule } from '../../model/rule.js';
import type { RuleChange } from '../../model/rule-change.js';
import type { ImpactClass, Leaves } from './class.js';

const LEAVES: ByAction<RuleChange, Leaves<Rule>> = {
  create: (change) => ({ gone: change.replaces ?? [], put: [change.rule] }),
  update: (change) => ({ gone: [change.live.id], put: [change.rule] }),
  adopt: (change) => ({ gone: [change.live.id], put: [change.rule] }),
  delete: (change) => ({ gone: [change.rule.id], put: [] }),
};

export const RULE_IMPACT: ImpactClass<RuleChange, Rule> = {
  leaves: (change) => onAction(change, LEAVES),
  // A rule names its application by an `instance` condition; without one it acts on every application.
  applications: (change) => {
    const instance = change.rule.conditions.find((c) => c.point[0] === 'instance' && c.type === 'equal');
    return instance?.value != null ? [Number(instance.value)] : undefined;
  },
  experimental: (change) => kindOf(change.rule).evidence?.decides === 'detection-by-regex',
};
