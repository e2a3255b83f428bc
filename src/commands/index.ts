import type { Command } from 'commander';
import { register as registerValidate } from './validate.js';
import { register as registerEmulator } from './emulator.js';
import { register as registerPlan } from './plan.js';
import { register as registerShow } from './show.js';
import { register as registerApply } from './apply.js';
import { register as registerAdopt } from './adopt.js';
import { register as registerExport } from './export.js';
import { register as registerCi } from './ci.js';
import { register as registerRun } from './run.js';
import { register as registerFmt } from './fmt.js';

/**
 * Each command module exports `register(program)`; add new commands here,
 * one line each.
 */
export function registerCommands(program: Command): void {
  registerEmulator(program);
  registerValidate(program);
  registerPlan(program);
  registerShow(program);
  registerApply(program);
  registerAdopt(program);
  registerExport(program);
  registerCi(program);
  registerRun(program);
  registerFmt(program);
}
