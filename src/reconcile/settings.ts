/**
 * The settings of a run, as one value: built once from the flags and the
 * environment (commands/run-settings.ts) and passed unchanged to planning and
 * writing. What shapes a plan's changes is recorded on it (`owner`, `adopt`,
 * `rule_updates`), so `apply --plan` plans again with exactly what was
 * reviewed (reconcile/saved-plan.ts). The guard's limits are the applying
 * command's: the plan records the verdict it was shown with, and the command
 * that writes decides again.
 */
import { DEFAULT_OWNER } from '../model/ownership.js';
import type { RuleUpdates } from '../plan/diff-rules.js';
import { DEFAULT_SAFETY, type SafetyLimits } from '../plan/safety.js';
import type { Targets } from '../plan/target.js';

/** How a plan is made. */
export interface PlanSettings {
  /** Owner name written on managed objects; only objects of this owner are changed or deleted. */
  readonly owner: string;
  /** `--adopt`: unmanaged objects equal to (or blocking) declarations become Rampart's. */
  readonly adopt: boolean;
  /** `--rule-updates`: `update` in place, or `replace` (create, then delete). */
  readonly ruleUpdates: RuleUpdates;
  /** `--allow-empty`: an empty or missing policy directory manages nothing instead of failing. */
  readonly allowEmpty: boolean;
  /** `--target`: only these declarations are planned, and nothing outside them deleted (plan/target.ts). */
  readonly target?: Targets;
}

/** How a plan is written. */
export interface WriteSettings {
  /** The mass-delete guard's limits (`--max-delete-share`, `--min-owned`). */
  readonly limits: SafetyLimits;
  /** `--force`: past the guard. */
  readonly force: boolean;
  /** `--dry-run`: plan only. */
  readonly dryRun: boolean;
  /** API calls in flight at once. */
  readonly concurrency: number;
  /** How long to wait for the listings to show the writes (0: not at all). */
  readonly settleTimeoutMs: number;
}

export interface RunSettings extends PlanSettings, WriteSettings {}

/** Every flag at its default: what a run without flags does. */
export const DEFAULT_RUN_SETTINGS: RunSettings = {
  owner: DEFAULT_OWNER,
  adopt: false,
  ruleUpdates: 'update',
  allowEmpty: false,
  limits: DEFAULT_SAFETY,
  force: false,
  dryRun: false,
  concurrency: 8,
  settleTimeoutMs: 30_000,
};

/** The defaults with some settings changed (tests, the bench). */
export function runSettings(changed: Partial<RunSettings> = {}): RunSettings {
  return { ...DEFAULT_RUN_SETTINGS, ...changed };
}
