/** `--rule-updates`: how a change to a rule's updatable fields is made (plan, apply and run). */
import type { Command } from 'commander';
import { Option } from './commander.js';
import type { RuleUpdates } from '../plan/diff-rules.js';

export interface RuleUpdatesFlags {
  ruleUpdates: RuleUpdates;
}

export function addRuleUpdatesOption(command: Command): Command {
  return command.addOption(
    new Option('--rule-updates <mode>', '`update`: change a rule in place where the service allows; `replace`: create a new rule and delete the old one (for accounts that refuse updates)')
      .choices(['update', 'replace'])
      .default('update')
      .env('RAMPART_RULE_UPDATES'),
  );
}
