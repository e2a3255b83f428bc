/** What each command module exports, below the table of commands (index.ts) that loads them. */
import type { Command } from 'commander';

/** Registers every command on a program of its own: what `completion` lists, handed down so it need not import the table. */
export type RegisterAll = (program: Command) => Promise<void>;

export interface CommandModule {
  register(program: Command, registerAll: RegisterAll): void;
}
