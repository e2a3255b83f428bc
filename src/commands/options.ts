/**
 * Options shared by the commands that read policies or talk to the API, with
 * their environment fallbacks (contract.md, "Connecting to the service").
 */
import { IP_APIS, type IpApiName } from '../model/ip-list-apis.js';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { Option } from './commander.js';
import { DEFAULT_OWNER, isValidOwner } from '../model/ownership.js';
import { UsageError } from '../errors.js';

export interface PolicyOptions {
  policies: string;
}

/**
 * `run` waits for a policy directory that does not exist yet (git-sync makes it
 * later), but only one it was told about: the default `./policies`, absent, is a
 * forgotten setting (the container image holds no policies), so it refuses to
 * start rather than wait forever.
 */
export function refuseMissingDefaultPolicies(command: Command): Command {
  return command.hook('preAction', (_program, action) => {
    const dir = action.getOptionValue('policies') as string;
    if (action.getOptionValueSource('policies') !== 'default' || existsSync(dir)) return;
    throw new UsageError(
      `no policy directory: ${dir} does not exist and neither --policies nor RAMPART_POLICIES is set. `
      + 'Point one of them at your policies (in the container image: mount them, e.g. at /policies, and set RAMPART_POLICIES=/policies)',
    );
  });
}

export interface ConnectionOptions {
  apiUrl?: string;
  apiTokenFile?: string;
  apiSecretFile?: string;
  emulator?: boolean;
  emulatorData?: string;
  emulatorLag?: number;
  owner: string;
  concurrency: number;
  requestTimeout: number;
  /** Undefined when neither `--ip-api` nor RAMPART_IP_API is given: a policy's `ip_api:`, else v4. */
  ipApi?: IpApiName;
}

export interface LogFlags {
  logFormat?: 'json' | 'pretty';
  logLevel?: string;
}

export function addPolicyOptions(command: Command): Command {
  return command.addOption(
    new Option('--policies <dir>', 'policy directory').env('RAMPART_POLICIES').default('./policies'),
  );
}

export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(new Option('--api-url <url>', 'API base URL of your cloud (US or EU)').env('RAMPART_API_URL'))
    .addOption(new Option('--api-token-file <file>', 'file holding the API token (or RAMPART_API_TOKEN / RAMPART_API_TOKEN_FILE)'))
    .addOption(new Option('--api-secret-file <file>', 'file holding the optional API secret (or RAMPART_API_SECRET / RAMPART_API_SECRET_FILE)'))
    .addOption(new Option('--emulator', 'use an in-process emulator of the API instead of a real account'))
    .addOption(new Option('--emulator-data <file>', 'with --emulator: keep its state in this file'))
    .addOption(new Option('--emulator-lag <ms>', 'with --emulator: listings lag writes by this long').argParser(wholeNumber('--emulator-lag', { min: 0, max: MAX_TIMER_MS })).hideHelp())
    .addOption(new Option('--owner <name>', 'owner name written on managed objects').env('RAMPART_OWNER').default(DEFAULT_OWNER).argParser(ownerName))
    .addOption(new Option('--ip-api <api>', 'the IP-list API to read and write: v4 (/v4/ip_rules) or groups (/v1/blocklist); default: the policies\' ip_api, else v4').choices(IP_APIS).env('RAMPART_IP_API'))
    .addOption(new Option('--concurrency <n>', 'API calls in flight at once').default(8).argParser(wholeNumber('--concurrency', { min: 1 })))
    .addOption(new Option('--request-timeout <ms>', 'timeout of one API call').default(30_000).argParser(wholeNumber('--request-timeout', { min: 1, max: MAX_TIMER_MS })));
}

export interface DeadlineFlags {
  timeout: string;
}

/** `--timeout`: how long a one-shot command may take to read the account (src/api/deadline.ts). */
export function addDeadlineOption(command: Command, what = 'reading the live state'): Command {
  return command.addOption(
    new Option('--timeout <duration>', `deadline for ${what}, retries included; 0 for none`).env('RAMPART_TIMEOUT').default('2m'),
  );
}

export function addLogOptions(command: Command): Command {
  return command
    .addOption(new Option('--log-format <format>', 'log format on stderr (default: pretty on a terminal, json otherwise)').choices(['json', 'pretty']).env('RAMPART_LOG_FORMAT'))
    .addOption(new Option('--log-level <level>', 'log level').choices(['trace', 'debug', 'info', 'warn', 'error', 'silent']).env('RAMPART_LOG_LEVEL'));
}

/** `--client`: an account id. */
export function accountId(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--client must be a positive integer account id, got "${value}"`);
  return n;
}

/** The longest a timer waits: Node fires a timer past 2^31 - 1 ms at once (see DURATION_BOUNDS). */
export const MAX_TIMER_MS = 24 * 86_400_000;

/**
 * The parser of a whole-number flag: decimal digits only, from `min` to `max`
 * (at most 2^53 - 1, the largest integer a number holds exactly). A value past
 * it (`--impact-limit 99999999999999999999`) was read rounded and shown so;
 * `1e3`, `0x10`, ` 5` and `1.0` were read as numbers.
 */
export function wholeNumber(flag: string, bounds: { readonly min: number; readonly max?: number }): (value: string) => number {
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < bounds.min || n > max) {
      throw new UsageError(`${flag} takes a whole number from ${bounds.min} to ${max}, got "${value}"`);
    }
    return n;
  };
}

function ownerName(value: string): string {
  if (!isValidOwner(value)) throw new UsageError(`--owner must be 1-64 letters, digits, '.', '_' or '-', got "${value}"`);
  return value;
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const DAY_MS = 86_400_000;

/**
 * The bounds of each duration option, where it is read. Node's timers hold at
 * most 2^31 - 1 ms (24.8 days) and fire at once past it: `--interval 30d`
 * resynced in a tight loop against the production rate limit, so no timer
 * option goes past 24 days. `--interval 1ms` was accepted too. `0` is allowed
 * only where it means "none".
 */
export const DURATION_BOUNDS = {
  '--interval': { minMs: 1_000, maxMs: 24 * DAY_MS },
  '--timeout': { minMs: 100, maxMs: 24 * DAY_MS, zero: 'no deadline' },
  '--settle-timeout': { minMs: 100, maxMs: DAY_MS, zero: 'no wait' },
  // The service keeps hits about six months.
  '--since': { minMs: 60_000, maxMs: 183 * DAY_MS },
  '--impact-window': { minMs: 3_600_000, maxMs: 183 * DAY_MS },
} as const satisfies Record<string, { minMs: number; maxMs: number; zero?: string }>;

export type DurationOption = keyof typeof DURATION_BOUNDS;

/**
 * `60s`, `5m`, `1h`, `30d`, `1500ms` or plain seconds → milliseconds; with
 * `option`, checked against its bounds with an error that names them.
 */
export function parseDuration(value: string, option?: DurationOption): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new UsageError(`invalid duration "${value}" (use e.g. 30s, 5m, 1h, 7d)`);
  const ms = Math.round(Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? 's'] ?? 1_000));
  if (option === undefined) return ms;
  const bounds: { minMs: number; maxMs: number; zero?: string } = DURATION_BOUNDS[option];
  if (ms === 0 && bounds.zero !== undefined) return 0;
  if (ms < bounds.minMs || ms > bounds.maxMs) {
    const zero = bounds.zero !== undefined ? ` (or 0 for ${bounds.zero})` : '';
    throw new UsageError(`${option} must be between ${formatMs(bounds.minMs)} and ${formatMs(bounds.maxMs)}${zero}, got "${value}"`);
  }
  return ms;
}

function formatMs(ms: number): string {
  const [unit, size] = ([['d', DAY_MS], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const).find(([, s]) => ms % s === 0) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

export interface JournalFlags {
  journal?: string;
}

/** `--journal FILE`: remember our own writes across restarts (see src/apply/journal-file.ts). */
export function addJournalOption(command: Command): Command {
  return command.addOption(
    new Option('--journal <file>', 'keep a journal of recent writes here, so a restart right after a kill never duplicates a write')
      .env('RAMPART_JOURNAL'),
  );
}
