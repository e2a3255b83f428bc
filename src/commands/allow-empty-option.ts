/** `--allow-empty`: plan, apply and run accept a missing or empty policy directory (and then manage nothing). */
import { type Command, Option } from 'commander';

export interface AllowEmptyFlags {
  allowEmpty?: boolean;
}

export function addAllowEmptyOption(command: Command): Command {
  return command.addOption(
    new Option('--allow-empty', 'accept a missing or empty policy directory: nothing is planned or deleted (without it, that is an error)')
      .env('RAMPART_ALLOW_EMPTY'),
  );
}
