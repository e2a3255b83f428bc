/** The safety guard's flags (contract.md: share of deletes, `--force`), shared by apply and run. */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { UsageError } from '../errors.js';
import { DEFAULT_SAFETY } from '../plan/index.js';

export interface SafetyFlags {
  force?: boolean;
  maxDeleteShare: number;
  minOwned: number;
}

export function addSafetyOptions(command: Command): Command {
  return command
    .option('--force', 'apply even when the plan deletes more than --max-delete-share of the owned objects')
    .addOption(
      new Option('--max-delete-share <ratio>', 'largest share of owned objects a plan may delete without --force')
        .default(DEFAULT_SAFETY.maxDeleteShare)
        .argParser(ratio),
    )
    .addOption(
      new Option('--min-owned <n>', 'the share limit applies once Rampart owns at least this many objects')
        .default(DEFAULT_SAFETY.minOwned)
        .argParser((value) => {
          const n = Number(value);
          if (!Number.isInteger(n) || n < 0) throw new UsageError(`--min-owned takes a whole number, got "${value}"`);
          return n;
        }),
    );
}

function ratio(value: string): number {
  const n = Number(value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--max-delete-share takes a ratio from 0 to 1 (or a percentage), got "${value}"`);
  return n;
}
