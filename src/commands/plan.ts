/**
 * `rampart plan`: validate, read the live state, print the changes. Never writes
 * to the account. With --detailed-exitcode: 0 no changes, 2 changes, 1 error.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { withDeadline } from '../api/deadline.js';
import { EXIT } from '../exit-codes.js';
import { createLogger, personAtTerminal } from '../log.js';
import { checkSafety, hasChanges } from '../plan/index.js';
import { impactUnsafe } from '../plan/impact-guard.js';
import { planWithImpact } from '../impact/index.js';
import { addImpactOptions, impactSettingsFrom, type ImpactFlags } from './impact-option.js';
import { addTargetOption, targetsFrom, type TargetFlags } from './target-option.js';
import { PAUSE_FILE, readPauseFile } from '../policy/pause.js';
import { prepare } from '../reconcile/prepare.js';
import { connect, runConnected } from './connect.js';
import {
  addConnectionOptions, addDeadlineOption, addLogOptions, addPolicyOptions, type ConnectionOptions, type DeadlineFlags, type LogFlags, parseDuration, type PolicyOptions,
} from './options.js';
import { PLAN_FORMATS, type PlanFormat, loadOrReport, writePlan } from './output.js';
import { runSettingsFrom } from './run-settings.js';
import { addAdoptOption, type AdoptFlags } from './adopt-option.js';
import { addAllowEmptyOption, type AllowEmptyFlags } from './allow-empty-option.js';
import { addRuleUpdatesOption, type RuleUpdatesFlags } from './rule-updates-option.js';

interface PlanFlags extends PolicyOptions, ConnectionOptions, LogFlags, DeadlineFlags, RuleUpdatesFlags, AllowEmptyFlags, AdoptFlags, ImpactFlags, TargetFlags {
  format: PlanFormat;
  out?: string;
  detailedExitcode?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('plan')
    .description('validate, read the live state and print the changes apply would make; changes nothing')
    .addOption(new Option('--format <format>', 'output format').choices(PLAN_FORMATS).default('text'))
    .option('--out <file>', 'also save the plan as JSON, for `apply --plan FILE`')
    .option('--detailed-exitcode', 'exit 2 when the plan has changes, 0 when it has none, 1 on error');
  addPolicyOptions(command);
  addAllowEmptyOption(command);
  addConnectionOptions(command);
  addRuleUpdatesOption(command);
  addAdoptOption(command);
  addImpactOptions(command);
  addTargetOption(command);
  addDeadlineOption(command);
  addLogOptions(command);
  command.action(async (flags: PlanFlags) => {
    process.exitCode = await plan(flags);
  });
}

export async function plan(flags: PlanFlags): Promise<number> {
  const logger = createLogger({ format: flags.logFormat, level: flags.logLevel, oneShot: true });
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const settings = runSettingsFrom(flags);
  const impact = impactSettingsFrom(flags);
  // Policies first: an invalid file is reported without needing a token or the network.
  const policy = await loadOrReport(flags.policies, flags.format, settings.allowEmpty);
  if (!policy) return EXIT.error;
  const target = targetsFrom(flags.target, policy, flags.policies);
  const paused = await readPauseFile(policy.root);
  if (paused) logger.warn({ reason: paused.reason, since: new Date(paused.since).toISOString() }, `${PAUSE_FILE} is present: apply refuses and the daemon writes nothing until it is removed`);
  const connection = await connect(flags, logger, { failFast: true, holdRetries: personAtTerminal(flags.logFormat) });
  return runConnected(connection, async () => {
    const plan = await withDeadline(timeoutMs, connection.target, async (signal) => {
      const prepared = await prepare({ policies: flags.policies, policy, settings: target ? { ...settings, target } : settings, api: connection.api, signal, logger });
      return planWithImpact(prepared.plan, prepared.live, connection.api, impact, signal);
    });
    await writePlan(plan, flags.format, flags.out);
    logger.info({ ...plan.summary, apiCalls: connection.api.http.totalCalls, target: connection.target }, 'plan ready');
    if (plan.impact && !plan.impact.complete) logger.warn({ reason: plan.impact.reason }, 'the impact is incomplete: counts are at least what they say');
    // Unsafe by the impact's guard (past the limit, or too incomplete to tell): the check fails, as apply would refuse.
    if (flags.detailedExitcode && impactUnsafe(plan.impact) !== undefined) {
      process.stderr.write(`${checkSafety(plan).message}\n`);
      return EXIT.error;
    }
    if (flags.detailedExitcode && hasChanges(plan)) return EXIT.changes;
    return EXIT.ok;
  });
}
