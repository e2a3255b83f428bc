/** The safety guard's flags (contract.md: share of deletes, `--force`), shared by apply and run. */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { UsageError } from '../errors.js';
import { DEFAULT_SAFETY } from '../plan/index.js';
import { wholeNumber } from './options.js';

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
        .argParser(wholeNumber('--min-owned', { min: 0 })),
    );
}

function ratio(value: string): number {
  // Decimal only: `0x1` and `1e-1` are not how a share is written.
  const decimal = /^(?:\d+(?:\.\d*)?|\.\d+)%?$/.test(value);
  const n = decimal ? Number(value.endsWith('%') ? Number(value.slice(0, -1)) / 100 : value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--max-delete-share takes a ratio from 0 to 1 (or a percentage), got "${value}"`);
  return n;
}
