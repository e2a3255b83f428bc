/**
 * `rampart run`: the daemon. Watches the policy directory (git-sync and
 * ConfigMap swaps included), re-plans on change and on the resync interval,
 * applies, and serves /healthz, /readyz, /metrics and /plan. `--once` runs one
 * cycle and exits; `--dry-run` plans and reports only.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { openJournalFile } from '../live/journal-file.js';
import { convergedMemoryFile, openConvergedMemory } from '../audit/converged-memory.js';
import { waitOnTerminalFailures } from '../daemon/terminal-wait.js';
import { WriteJournal } from '../live/write-journal.js';
import type { Cycle, CycleResult } from '../daemon/index.js';
import { ApplyFailedError, FileError, PolicyInvalidError, UnsafePlanError, UsageError, type RampartError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { createLogger } from '../log.js';
import { onShutdownSignals } from '../signals.js';
import { createCycle } from '../reconcile/cycle.js';
import { runSettingsFrom } from './run-settings.js';
import { connect } from './connect.js';
import {
  addConnectionOptions, addDeadlineOption, addJournalOption, addLogOptions, addPolicyOptions, type ConnectionOptions, type DeadlineFlags, type JournalFlags, type LogFlags,
  parseDuration, type PolicyOptions, refuseMissingDefaultPolicies,
} from './options.js';
import { addAdoptOption, type AdoptFlags } from './adopt-option.js';
import { addAllowEmptyOption, type AllowEmptyFlags } from './allow-empty-option.js';
import { addRuleUpdatesOption, type RuleUpdatesFlags } from './rule-updates-option.js';
import { addSafetyOptions, type SafetyFlags } from './safety-options.js';
import { packageVersion } from '../version.js';

interface RunFlags extends PolicyOptions, ConnectionOptions, LogFlags, SafetyFlags, JournalFlags, DeadlineFlags, RuleUpdatesFlags, AllowEmptyFlags, AdoptFlags {
  interval: string;
  listen: string;
  allowedHost: string[];
  dryRun?: boolean;
  once?: boolean;
  settleTimeout: string;
  adminTokenFile?: string;
}

export function register(program: Command): void {
  const command = program
    .command('run')
    .description('the daemon: watch the policies, resync on an interval, apply; serves health, metrics and the last plan')
    .addOption(new Option('--interval <duration>', 'resync interval (jittered by ±10%)').env('RAMPART_INTERVAL').default('60s'))
    .addOption(new Option('--listen <host:port>', 'address of /healthz, /readyz, /metrics and /plan').env('RAMPART_LISTEN').default('127.0.0.1:9464'))
    .addOption(new Option('--allowed-host <name>', 'a host name the endpoints answer besides IP addresses and localhost (repeatable; others get 421)')
      .env('RAMPART_ALLOWED_HOSTS').argParser((value: string, all: string[] = []) => [...all, ...value.split(',').map((v) => v.trim()).filter((v) => v !== '')]).default([]))
    .option('--dry-run', 'plan and report only; change nothing')
    .option('--once', 'run one cycle and exit (0 on success, 1 otherwise)')
    .option('--settle-timeout <duration>', 'how long an apply waits for the listings to show its writes', '30s')
    .addOption(new Option('--admin-token-file <file>', 'enables POST /pause and DELETE /pause for a bearer of the token in this file (re-read on each request)').env('RAMPART_ADMIN_TOKEN_FILE'));
  addSafetyOptions(command);
  addRuleUpdatesOption(command);
  addAdoptOption(command);
  addJournalOption(command);
  refuseMissingDefaultPolicies(addPolicyOptions(command));
  addAllowEmptyOption(command);
  addConnectionOptions(command);
  addDeadlineOption(command, 'reading the live state with --once (the daemon retries each cycle with backoff instead)');
  addLogOptions(command);
  command.action(async (flags: RunFlags) => {
    process.exitCode = await run(flags);
  });
}

export async function run(flags: RunFlags): Promise<number> {
  const logger = createLogger({ format: flags.logFormat, level: flags.logLevel });
  // Every flag is checked before anything starts: a bad one must not leave the embedded emulator running.
  const intervalMs = parseDuration(flags.interval, '--interval');
  const settings = runSettingsFrom(flags);
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  // The daemon (metrics registry, watcher, server) is loaded when `run` runs: the other commands start without it.
  if (flags.adminTokenFile !== undefined) await checkAdminTokenFile(flags.adminTokenFile);
  const { DaemonMetrics, isSuccessfulResult, PauseSwitch, ReconcileLoop, runDaemon } = await import('../daemon/index.js');
  const pause = new PauseSwitch();
  const metrics = new DaemonMetrics({ version: await packageVersion() });
  // The API client is shared by every cycle and logs its retries itself; cycles run one at a
  // time, so its lines (and the embedded emulator's) carry the id of the cycle running then.
  let runningCycle: string | undefined;
  const connectionLogger = logger.child({}, {
    formatters: { log: (fields) => (runningCycle === undefined ? fields : { cycle: runningCycle, ...fields }) },
  });
  const connection = await connect(flags, connectionLogger, {
    onCall: ({ route, status }) => metrics.recordApiCall(route, status),
    onRetry: ({ route }) => metrics.recordRetry(route),
  });
  const stop = new AbortController();
  const hardStop = new AbortController();
  const disposeSignals = onShutdownSignals(stop, { logger, hardExit: (code) => {
    hardStop.abort();
    process.exit(code);
  } });
  try {
    // Long enough to outlast the listing lag across a couple of cycles.
    const journalTtlMs = Math.max(120_000, 2 * intervalMs);
    const reconcile = createCycle({
      policies: flags.policies,
      api: connection.api,
      settings,
      journal: flags.journal
        ? openJournalFile(flags.journal, { ttlMs: journalTtlMs, logger })
        : new WriteJournal(journalTtlMs),
      ...(flags.once ? { readDeadline: { ms: timeoutMs, target: connection.target } } : {}),
      pause: () => pause.current,
      ...(flags.journal ? { memory: openConvergedMemory(convergedMemoryFile(flags.journal), flags.owner, logger) } : {}),
    });
    // A rotated token file is picked up before each cycle, without a restart; a refused token waits for it.
    const reconcileOrWait = waitOnTerminalFailures(reconcile, async () => (await connection.reloadCredentials()) === 'reloaded');
    const cycle: Cycle = async (context) => {
      runningCycle = context.cycleId;
      try {
        return await reconcileOrWait(context);
      } finally {
        runningCycle = undefined;
      }
    };
    logger.info({ policies: flags.policies, target: connection.target, intervalMs, dryRun: Boolean(flags.dryRun), owner: flags.owner }, 'rampart run starting');
    if (flags.once) {
      const loop = new ReconcileLoop({ cycle, intervalMs, logger, metrics });
      const outcome = await loop.runOnce(stop.signal);
      if (isSuccessfulResult(outcome.result)) return EXIT.ok;
      // The cycle's log line has the details; a person at a terminal wants one line.
      throw outcome.error instanceof Error ? outcome.error : unsuccessfulCycle(outcome.result);
    }
    await runDaemon({
      dir: flags.policies, cycle, intervalMs, listen: flags.listen, allowedHosts: flags.allowedHost, logger, signal: stop.signal, hardStop: hardStop.signal, metrics, releaseMemoryWhenIdle: true,
      ...(flags.adminTokenFile !== undefined ? { admin: { tokenFile: flags.adminTokenFile, pause } } : {}),
    });
    logger.info('rampart run stopped');
    return EXIT.ok;
  } finally {
    disposeSignals();
    await connection.close();
  }
}

/** The error a `run --once` cycle ends in when its outcome carries none: coded by what the cycle met. */
function unsuccessfulCycle(result: CycleResult): RampartError {
  const message = `the cycle ended ${result}`;
  if (result === 'invalid') return new PolicyInvalidError(`${message}: a policy file is invalid; nothing was applied`);
  if (result === 'unsafe') return new UnsafePlanError(`${message}: the plan deletes more than the safety guard allows (pass --force if intended)`);
  return new ApplyFailedError(message);
}

/** Refused at start rather than at the first pause request, in the middle of an incident. */
async function checkAdminTokenFile(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError(`cannot read the admin token file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { cause: error });
  }
  if (text.trim() === '') throw new UsageError(`the admin token file ${file} is empty`);
}
