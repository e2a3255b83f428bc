/**
 * `rampart apply`: plan and apply, or apply a saved plan (`--plan FILE`) after
 * checking it is still current. Refuses an unsafe plan without --force.
 * Exit 0 when everything applied, 1 on any error or failed change.
 */
import { confirmed, shouldAsk } from './confirm.js';
import { progressLine } from './progress.js';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { withDeadline } from '../api/deadline.js';
import { convergedMemoryFile, openConvergedMemory } from '../audit/converged-memory.js';
import { renderReport } from '../apply/render-report.js';
import { openJournalFile } from '../live/journal-file.js';
import { PausedError, UsageError } from '../errors.js';
import { PAUSE_FILE, readPauseFile } from '../policy/pause.js';
import { readPolicyRevision } from '../policy/revision.js';
import { EXIT } from '../exit-codes.js';
import { createLogger, personAtTerminal, type Logger } from '../log.js';
import { groupByAction } from '../model/by-action.js';
import type { Change } from '../model/change.js';
import { restrictPlan, type Plan } from '../plan/index.js';
import { onShutdownSignals } from '../signals.js';
import { prepare } from '../reconcile/prepare.js';
import { reconcile } from '../reconcile/reconcile.js';
import { confirmSavedPlan, planSettingsOf, readSavedPlan } from '../reconcile/saved-plan.js';
import { connect, runConnected } from './connect.js';
import {
  addConnectionOptions, addDeadlineOption, addJournalOption, addLogOptions, addPolicyOptions, type ConnectionOptions, type DeadlineFlags, type JournalFlags, type LogFlags,
  parseDuration, type PolicyOptions,
} from './options.js';
import { useColor, loadOrReport, writePlan } from './output.js';
import { addAdoptOption, type AdoptFlags } from './adopt-option.js';
import { addAllowEmptyOption, type AllowEmptyFlags } from './allow-empty-option.js';
import { addRuleUpdatesOption, type RuleUpdatesFlags } from './rule-updates-option.js';
import { runSettingsFrom } from './run-settings.js';
import { addSafetyOptions, type SafetyFlags } from './safety-options.js';
import { planWithImpact } from '../impact/index.js';
import { addImpactOptions, impactSettingsFrom, savedImpactSettings, type ImpactFlags } from './impact-option.js';
import { addTargetOption, targetsFrom, type TargetFlags } from './target-option.js';

interface ApplyFlags extends PolicyOptions, ConnectionOptions, LogFlags, SafetyFlags, JournalFlags, DeadlineFlags, RuleUpdatesFlags, AllowEmptyFlags, AdoptFlags, ImpactFlags, TargetFlags {
  plan?: string;
  dryRun?: boolean;
  format: 'text' | 'json';
  settleTimeout: string;
  /** `rampart adopt`: only the plan's `adopt` changes are applied. */
  adoptOnly?: boolean;
  /** Skip the question a terminal gets before writing. */
  autoApprove?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('apply')
    .description('plan and apply the changes (creates before the deletes they replace)')
    .option('--plan <file>', 'apply exactly this saved plan (from `plan --out`); refused if the policies or the live state changed since');
  addWritingOptions(command, () => {
    addSafetyOptions(command);
    addRuleUpdatesOption(command);
    addAdoptOption(command);
    addImpactOptions(command);
    addTargetOption(command);
  });
  command.action(async (flags: ApplyFlags) => {
    process.exitCode = await apply(flags);
  });
}

/**
 * The options of every command that writes through `apply` (`apply`, `adopt`);
 * `own` adds the command's own ones after the output options.
 */
export function addWritingOptions(command: Command, own: () => void): void {
  command
    .option('--dry-run', 'print the plan only; change nothing')
    .option('--auto-approve', 'on a terminal, apply without asking (without a terminal nothing is asked)')
    .addOption(new Option('--format <format>', 'output format of the plan and report').choices(['text', 'json']).default('text'))
    .option('--settle-timeout <duration>', 'how long to wait for the listings to show the writes', '30s');
  own();
  addJournalOption(command);
  addPolicyOptions(command);
  addAllowEmptyOption(command);
  addConnectionOptions(command);
  addDeadlineOption(command, 'reading the live state before any write (writes are bounded by --request-timeout each)');
  addLogOptions(command);
}

export async function apply(flags: ApplyFlags): Promise<number> {
  const logger = createLogger({ format: flags.logFormat, level: flags.logLevel, oneShot: true });
  // Checked before anything is planned or connected.
  const fromFlags = runSettingsFrom(flags);
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const saved = flags.plan ? { file: flags.plan, plan: await readSavedPlan(flags.plan) } : undefined;
  // A saved plan's limit is enforced from the file, flag or not.
  const impact = saved ? savedImpactSettings(saved, flags) : impactSettingsFrom(flags);
  const policy = await loadOrReport(flags.policies, flags.format, fromFlags.allowEmpty);
  // A saved plan is recomputed as it was made: with --adopt exactly when it was (its adoptions are part of its changes).
  if (saved && flags.adopt && !saved.plan.adopt) {
    throw new UsageError(`${saved.file} was made without --adopt; make the plan with \`rampart plan --adopt --out FILE\` to review and apply adoptions`);
  }
  if (!policy) return EXIT.error;
  if (saved && flags.target) throw new UsageError('--target shapes a new plan: a saved plan applies the targets it was made with');
  const target = targetsFrom(flags.target, policy, flags.policies);
  const settings = saved ? { ...fromFlags, ...planSettingsOf(saved.plan) } : target ? { ...fromFlags, target } : fromFlags;
  if (policy.desired.clients.length === 0) logger.warn({ policies: flags.policies }, 'no policy files: nothing is managed, nothing is deleted');
  // Break-glass holds every writer, a pipeline too: the plan is shown, the gate in reconcile() writes nothing.
  const paused = settings.dryRun ? undefined : await readPauseFile(policy.root);
  const revision = await readPolicyRevision(policy.root);

  const connection = await connect(flags, logger, { failFast: true, holdRetries: personAtTerminal(flags.logFormat) });
  const stop = new AbortController();
  const disposeSignals = onShutdownSignals(stop, { logger });
  return runConnected(connection, async () => {
    const journal = flags.journal ? openJournalFile(flags.journal, { logger }) : undefined;
    const memory = flags.journal ? openConvergedMemory(convergedMemoryFile(flags.journal), settings.owner, logger) : undefined;
    const { prepared, plan } = await withDeadline(timeoutMs, connection.target, async (signal) => {
      const ready = await prepare({ policies: flags.policies, policy, settings, api: connection.api, journal, signal, logger });
      // A saved plan was made by `plan` from the listing alone; compare like with like.
      // Only its changes are compared: everything applied or counted comes from the recomputation.
      const computed = saved
        ? confirmSavedPlan(saved.plan, ready.desired, ready.listed, { file: saved.file, owner: settings.owner, limits: settings.limits })
        : ready.plan;
      const chosen = flags.adoptOnly ? adoptionsOnly(computed, logger) : computed;
      return { prepared: ready, plan: await planWithImpact(chosen, ready.live, connection.api, impact, signal) };
    });
    if (flags.format === 'text') await writePlan(plan, 'text');
    // A person at a terminal decides, with the plan in front of them; a saved plan was reviewed already.
    if (!saved && !settings.dryRun && !paused && plan.changes.length > 0 && shouldAsk(process.stdin, flags.autoApprove ?? false)) {
      if (flags.format !== 'text') throw new UsageError('--format json on a terminal shows no plan to confirm: add --auto-approve, or use the text format');
      if (!(await confirmed())) {
        process.stderr.write('Apply cancelled: nothing was changed.\n');
        return EXIT.error;
      }
    }

    const progress = flags.format === 'text' && !settings.dryRun ? progressLine(process.stderr, plan.changes.length) : undefined;
    const done = await reconcile({
      plan, desired: prepared.desired, digest: prepared.policy.digest, live: saved ? prepared.listed : prepared.live,
      converged: async () => memory?.load(), settings, api: connection.api, journal, stop: stop.signal, logger,
      revision: revision?.revision, nextStep: 'run apply again to converge', pause: paused,
      ...(progress ? { onResult: () => progress.tick() } : {}),
    }).finally(() => progress?.done());
    if (done.result === 'paused') {
      throw new PausedError(`${flags.policies}/${PAUSE_FILE} pauses every write (since ${new Date(done.pause.since).toISOString()}): ${done.pause.reason}; `
        + 'remove the file to resume (plan and apply --dry-run still work)');
    }
    if (done.result === 'unsafe') throw done.error;
    if (done.result === 'dry-run' || done.result === 'no-op') {
      if (done.result === 'no-op' && !flags.adoptOnly) await memory?.save(done.declared);
      if (flags.format === 'json') await writePlan(plan, 'json');
      // The text plan's last line says what would be done; a dry run says too that nothing was.
      else if (settings.dryRun && plan.changes.length > 0) process.stdout.write('Dry run: nothing was applied.\n');
      logger.info({ dryRun: settings.dryRun, ...plan.summary }, settings.dryRun ? 'dry run: nothing applied' : 'nothing to apply');
      return EXIT.ok;
    }
    process.stdout.write(renderReport(plan, done.report, { format: flags.format, color: useColor() }));
    if (done.result === 'failed') throw done.error;
    if (!flags.adoptOnly) await memory?.save(done.declared);
    return EXIT.ok;
  }).finally(disposeSignals);
}

/** `rampart adopt`: the plan's adoptions alone; the rest is said, and left to `apply`. */
function adoptionsOnly(plan: Plan, logger: Logger): Plan {
  const adopting = new Set<Change>(groupByAction(plan.changes)('adopt'));
  const adoptions = restrictPlan(plan, (change) => (adopting.has(change) ? change : undefined));
  const left = plan.changes.length - adoptions.changes.length;
  if (left > 0) logger.info({ left }, `${left} other change(s) of the plan are left for \`rampart apply --adopt\``);
  return adoptions;
}
