/**
 * `rampart show PLAN.json`: renders a saved plan (`plan --out`) in any format,
 * so a CI comment shows exactly the plan `apply --plan` will apply. Reads no
 * policy and calls no API; a file edited after it was made is refused.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { EXIT } from '../exit-codes.js';
import { hasChanges } from '../plan/index.js';
import { readSavedPlan } from '../reconcile/saved-plan.js';
import { PLAN_FORMATS, type PlanFormat, writeDocument } from './output.js';

interface ShowFlags {
  format: PlanFormat;
  detailedExitcode?: boolean;
}

export function register(program: Command): void {
  program
    .command('show')
    .argument('<plan>', 'a plan saved by `rampart plan --out FILE`')
    .description('render a saved plan (text, json, markdown or github); reads no policy and calls no API')
    .addOption(new Option('--format <format>', 'output format').choices(PLAN_FORMATS).default('text'))
    .option('--detailed-exitcode', 'exit 2 when the plan has changes, 0 when it has none, 1 on error')
    .action(async (file: string, flags: ShowFlags) => {
      process.exitCode = await show(file, flags);
    });
}

export async function show(file: string, flags: ShowFlags): Promise<number> {
  const plan = await readSavedPlan(file);
  await writeDocument(plan, flags.format);
  return flags.detailedExitcode && hasChanges(plan) ? EXIT.changes : EXIT.ok;
}
