/** The run settings (reconcile/settings.ts) from the flags of `plan`, `apply`, `adopt` and `run`, built once. */
import { DEFAULT_RUN_SETTINGS, type RunSettings } from '../reconcile/settings.js';
import type { AdoptFlags } from './adopt-option.js';
import type { AllowEmptyFlags } from './allow-empty-option.js';
import { parseDuration } from './options.js';
import type { RuleUpdatesFlags } from './rule-updates-option.js';
import type { SafetyFlags } from './safety-options.js';

/** The flags behind the settings; a command without some (`plan` has no guard flags) runs with their defaults. */
export interface RunSettingsFlags extends Partial<SafetyFlags>, Partial<RuleUpdatesFlags>, AllowEmptyFlags, AdoptFlags {
  owner: string;
  concurrency: number;
  dryRun?: boolean;
  settleTimeout?: string;
}

export function runSettingsFrom(flags: RunSettingsFlags): RunSettings {
  const defaults = DEFAULT_RUN_SETTINGS;
  return {
    owner: flags.owner,
    adopt: Boolean(flags.adopt),
    ruleUpdates: flags.ruleUpdates ?? defaults.ruleUpdates,
    allowEmpty: Boolean(flags.allowEmpty),
    limits: {
      maxDeleteShare: flags.maxDeleteShare ?? defaults.limits.maxDeleteShare,
      minOwned: flags.minOwned ?? defaults.limits.minOwned,
    },
    force: Boolean(flags.force),
    dryRun: Boolean(flags.dryRun),
    concurrency: flags.concurrency,
    settleTimeoutMs: flags.settleTimeout !== undefined ? parseDuration(flags.settleTimeout, '--settle-timeout') : defaults.settleTimeoutMs,
  };
}
