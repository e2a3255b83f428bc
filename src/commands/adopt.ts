/**
 * `rampart adopt`: takes over the unmanaged objects the policies declare, and
 * nothing else: the plan of `apply --adopt` restricted to its `adopt`
 * changes. A rule gets the owner mark by an update of its comment; IP values by
 * a forced overwrite in their own list. Never a rule create, never a delete;
 * whatever else the policies ask for is left to `apply`.
 */
import type { Command } from 'commander';
import { addWritingOptions, apply } from './apply.js';
import { addRuleUpdatesOption } from './rule-updates-option.js';

export function register(program: Command): void {
  const command = program
    .command('adopt')
    .description('make the unmanaged objects the policies declare Rampart\'s, in place; creates and deletes nothing');
  addWritingOptions(command, () => addRuleUpdatesOption(command));
  command.action(async (flags: Parameters<typeof apply>[0]) => {
    // Nothing is deleted, so the delete guard has nothing to weigh.
    process.exitCode = await apply({ ...flags, adopt: true, adoptOnly: true, maxDeleteShare: 1, minOwned: 0 });
  });
}
