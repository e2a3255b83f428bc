import type { Command } from 'commander';
import type { CommandModule, RegisterAll } from './command-module.js';

/**
 * Each command module exports `register` (command-module.ts); add new commands here, one
 * line each, in the order help lists them. A module is imported only when its
 * command runs (or help lists them all): `validate` starts without the API
 * client, the logger or the daemon.
 */
const COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  emulator: () => import('./emulator.js'),
  validate: () => import('./validate.js'),
  plan: () => import('./plan.js'),
  show: () => import('./show.js'),
  apply: () => import('./apply.js'),
  adopt: () => import('./adopt.js'),
  export: () => import('./export.js'),
  doctor: () => import('./doctor.js'),
  ci: () => import('./ci.js'),
  run: () => import('./run.js'),
  fmt: () => import('./fmt.js'),
  tune: () => import('./tune.js'),
  completion: () => import('./completion.js'),
};

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/**
 * Registers the command `argv` names (as `process.argv`), or every command when
 * it names none of them (help, `--version`, a typo commander suggests a fix for).
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  // The program's own options (-V, -h) take no value, so the first word that is not an option is the command.
  const named = argv.slice(2).find((arg) => !arg.startsWith('-'));
  const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : COMMAND_NAMES;
  const modules = await Promise.all(wanted.map((name) => COMMANDS[name]!()));
  const registerAll: RegisterAll = (other) => registerCommands(other, ['node', 'rampart']);
  for (const module of modules) module.register(program, registerAll);
}
