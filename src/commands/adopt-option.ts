/** `--adopt`: plan, apply and run take over unmanaged objects equal to (or blocking) declarations (src/plan/adopt.ts). */
import type { Command } from 'commander';
import { addBooleanEnvOption } from './boolean-env.js';

export interface AdoptFlags {
  adopt?: boolean;
}

export function addAdoptOption(command: Command): Command {
  return addBooleanEnvOption(
    command,
    '--adopt',
    'make unmanaged objects equal to a declaration Rampart\'s, in place (a rule by an update of its comment, an IP object by a forced overwrite); an unmanaged one-per-scope rule or a value in another list is adopted and changed',
    'RAMPART_ADOPT',
  );
}
