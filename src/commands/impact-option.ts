/**
 * `--impact`, `--impact-window`, `--impact-limit` (plan and apply): each change
 * with what it would have done to the traffic the service saw. Either of the
 * last two asks for the impact by itself.
 */
import type { Command } from 'commander';
import type { ServiceApi } from '../api/service.js';
import { withImpact } from '../impact/index.js';
import type { LiveState } from '../model/state.js';
import type { Plan } from '../plan/model.js';
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

export interface ImpactSettings {
  readonly windowSeconds: number;
  readonly limit?: number;
}

/** The impact asked for, checked before anything is read; undefined without one. */
export function impactSettingsFrom(flags: ImpactFlags): ImpactSettings | undefined {
  if (!flags.impact && flags.impactWindow === undefined && flags.impactLimit === undefined) return undefined;
  const windowMs = parseDuration(flags.impactWindow ?? DEFAULT_IMPACT_WINDOW, '--impact-window');
  return { windowSeconds: Math.round(windowMs / 1000), ...(flags.impactLimit !== undefined ? { limit: flags.impactLimit } : {}) };
}

export async function planWithImpact(plan: Plan, live: LiveState, api: ServiceApi, settings: ImpactSettings | undefined, signal?: AbortSignal): Promise<Plan> {
  if (!settings || plan.changes.length === 0) return plan;
  return withImpact(plan, live, api, { ...settings, nowSeconds: Math.floor(Date.now() / 1000), ...(signal ? { signal } : {}) });
}
