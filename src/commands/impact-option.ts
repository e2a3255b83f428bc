/**
 * `--impact`, `--impact-window`, `--impact-limit` (plan and apply): each change
 * with what it would have done to the traffic the service saw. Either of the
 * last two asks for the impact by itself.
 */
import type { Command } from 'commander';
import type { ImpactSettings } from '../impact/index.js';
import { UsageError } from '../errors.js';
import type { PlanDocument } from '../plan/types.js';
import { Option } from './commander.js';
import { parseDuration, wholeNumber } from './options.js';

export interface ImpactFlags {
  impact?: boolean;
  impactWindow?: string;
  impactLimit?: number;
}

export const DEFAULT_IMPACT_WINDOW = '7d';

export function addImpactOptions(command: Command): Command {
  return command
    .option('--impact', 'say what each change would have done to the traffic the service saw (its hits) in the window')
    .addOption(new Option('--impact-window <duration>', `how far back the impact reads (default ${DEFAULT_IMPACT_WINDOW}; implies --impact)`))
    .addOption(new Option('--impact-limit <requests>', 'unsafe past this many requests newly blocked or no longer blocked by one change (implies --impact)').argParser(wholeNumber('--impact-limit', { min: 0 })));
}


/** The impact asked for, checked before anything is read; undefined without one. */
export function impactSettingsFrom(flags: ImpactFlags): ImpactSettings | undefined {
  if (!flags.impact && flags.impactWindow === undefined && flags.impactLimit === undefined) return undefined;
  const windowMs = parseDuration(flags.impactWindow ?? DEFAULT_IMPACT_WINDOW, '--impact-window');
  return { windowSeconds: Math.round(windowMs / 1000), ...(flags.impactLimit !== undefined ? { limit: flags.impactLimit } : {}) };
}

/**
 * `apply --plan FILE`: the impact the saved plan was made with, when it
 * carries a limit (its checksum binds the limit and window): the hits are read
 * again and the limit enforced, with or without the flag. Without a limit
 * nothing is read, as before. The flags shape a new plan, as `--target` does.
 */
export function savedImpactSettings(saved: { readonly file: string; readonly plan: PlanDocument }, flags: ImpactFlags): ImpactSettings | undefined {
  if (flags.impact || flags.impactWindow !== undefined || flags.impactLimit !== undefined) {
    throw new UsageError(`--impact, --impact-window and --impact-limit shape a new plan: ${saved.file} is applied with the impact it was made with`
      + `${saved.plan.impact?.limit !== undefined ? ` (limit ${saved.plan.impact.limit})` : ''}; make the plan with \`rampart plan --impact-limit N --out FILE\` to change it`);
  }
  const impact = saved.plan.impact;
  if (impact?.limit === undefined) return undefined;
  return { windowSeconds: impact.window_seconds, limit: impact.limit };
}


