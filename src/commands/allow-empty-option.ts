/** `--allow-empty`: plan, apply and run accept a missing or empty policy directory (and then manage nothing). */
import type { Command } from 'commander';
import { addBooleanEnvOption } from './boolean-env.js';

export interface AllowEmptyFlags {
  allowEmpty?: boolean;
}

export function addAllowEmptyOption(command: Command): Command {
  return addBooleanEnvOption(
    command,
    '--allow-empty',
    'accept a missing or empty policy directory: nothing is planned or deleted (without it, that is an error)',
    'RAMPART_ALLOW_EMPTY',
  );
}
