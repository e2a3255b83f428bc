import type { Command } from 'commander';
import { register as registerValidate } from './validate.js';
import { register as registerEmulator } from './emulator.js';

/**
 * Each command module exports `register(program)`; add new commands here,
 * one line each.
 */
export function registerCommands(program: Command): void {
  void program;
  registerValidate(program);
  registerEmulator(program);
}
