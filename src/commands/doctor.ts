/**
 * `rampart doctor`: with the configured URL and token, tries each read the
 * policies will need for each client they name, and says per read whether it
 * works, and if not, the error code and the right it needs. Writes nothing.
 * Exit 0 when every read works, 1 otherwise.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { withDeadline } from '../api/deadline.js';
import { EXIT } from '../exit-codes.js';
import { createLogger, personAtTerminal } from '../log.js';
import { terminalText } from '../outside-text.js';
import { connect, runConnected } from './connect.js';
import { runAccessChecks, type CheckResult } from './doctor-checks.js';
import {
  addConnectionOptions, addDeadlineOption, addLogOptions, addPolicyOptions, type ConnectionOptions, type DeadlineFlags, type LogFlags, parseDuration, type PolicyOptions,
} from './options.js';
import { loadOrReport } from './output.js';

interface DoctorFlags extends PolicyOptions, ConnectionOptions, LogFlags, DeadlineFlags {
  format: 'text' | 'json';
}

export function register(program: Command): void {
  const command = program
    .command('doctor')
    .description('try each read the policies need with the configured URL and token; say what works and which right is missing')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'));
  addPolicyOptions(command);
  addConnectionOptions(command);
  addDeadlineOption(command, 'the checks');
  addLogOptions(command);
  command.action(async (flags: DoctorFlags) => {
    process.exitCode = await doctor(flags);
  });
}

export async function doctor(flags: DoctorFlags): Promise<number> {
  const logger = createLogger({ format: flags.logFormat, level: flags.logLevel, oneShot: true });
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const policy = await loadOrReport(flags.policies, flags.format);
  if (!policy) return EXIT.error;
  const connection = await connect(flags, logger, { failFast: true, holdRetries: personAtTerminal(flags.logFormat) });
  return runConnected(connection, async () => {
    const results = await withDeadline(timeoutMs, connection.target, (signal) => runAccessChecks(connection.api, policy.desired.clients, signal));
    const stamps = policy.desired.rules.filter((rule) => rule.kind === 'disable_stamp').length;
    const report = { target: connection.target, results, stamps };
    process.stdout.write(flags.format === 'json' ? renderJson(report) : renderText(report));
    return results.every((result) => !result.error) ? EXIT.ok : EXIT.error;
  });
}

interface Report {
  readonly target: string;
  readonly results: readonly CheckResult[];
  /** disable_stamp rules the policies declare: creating them needs more than the writes below. */
  readonly stamps: number;
}

const WRITES_NOT_TRIED = 'Writes (apply, run, adopt: create, update and delete rules and IP lists) are not tried: doctor changes nothing.';
const stampNote = (n: number) => `The policies declare ${n} disable_stamp rule(s): creating them needs an extended admin token (else 403).`;

function renderText({ target, results, stamps }: Report): string {
  const width = Math.max(...results.map((r) => r.check.read.length));
  const lines = results.map(({ client, check, error }) => {
    const what = `client ${client}  ${check.read.padEnd(width)}  ${check.route}`;
    const forWhom = `for ${check.neededBy.join(', ')}`;
    if (!error) return `ok    ${what}  (${forWhom})`;
    const said = error.missingRight
      ? `the token lacks the right to ${error.missingRight}, ${forWhom} (answered ${error.answered ?? ''})`
      : error.message;
    return `FAIL  ${what}  [${error.code}] ${terminalText(said)}`;
  });
  const passed = results.filter((r) => !r.error).length;
  return [
    `Reads the policies need, tried against ${target}:`,
    ...lines,
    `${passed} of ${results.length} reads work.`,
    WRITES_NOT_TRIED,
    ...(stamps > 0 ? [stampNote(stamps)] : []),
    '',
  ].join('\n');
}

function renderJson({ target, results, stamps }: Report): string {
  const checks = results.map(({ client, check, error }) => ({
    client, read: check.read, route: check.route, right: check.right, needed_by: check.neededBy, ok: !error,
    ...(error ? { error: { code: error.code, message: error.message, ...(error.missingRight ? { missing_right: error.missingRight } : {}) } } : {}),
  }));
  const passed = checks.filter((c) => c.ok).length;
  const notes = [WRITES_NOT_TRIED, ...(stamps > 0 ? [stampNote(stamps)] : [])];
  return `${JSON.stringify({ target, passed, failed: checks.length - passed, checks, notes }, null, 2)}\n`;
}
