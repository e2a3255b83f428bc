/**
 * A boolean flag that may also come from an environment variable, read by its
 * value. The option parser alone turns such a flag on whenever the variable is
 * set, so `RAMPART_ADOPT=false` would adopt: here `true`/`1`/`yes` turn it on,
 * `false`/`0`/`no`/empty leave it off, anything else is a usage error.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { UsageError } from '../errors.js';

const ON = new Set(['true', '1', 'yes']);
const OFF = new Set(['false', '0', 'no', '']);

export function addBooleanEnvOption(command: Command, flag: string, description: string, envVar: string): Command {
  const option = new Option(flag, description).env(envVar);
  const key = option.attributeName();
  return command.addOption(option).hook('preAction', (self) => {
    if (self.getOptionValueSource(key) !== 'env') return;
    const raw = (process.env[envVar] ?? '').trim().toLowerCase();
    if (!ON.has(raw) && !OFF.has(raw)) {
      throw new UsageError(`${envVar}=${JSON.stringify(process.env[envVar])} is not a boolean: use true or false (1 or 0)`);
    }
    self.setOptionValueWithSource(key, ON.has(raw) ? true : undefined, 'env');
  });
}
