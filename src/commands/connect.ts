/**
 * Connects to the service API named by the options, or starts the in-process
 * emulator for `--emulator`. The one place a token is resolved.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient, type CallRecord } from '../api/client.js';
import { credentialReloader, type ReloadResult } from '../api/credential-reload.js';
import { resolveCredentials, type Credentials } from '../api/credentials.js';
import { DEFAULT_RETRY_POLICY, ONE_SHOT_RETRY_POLICY, type RetryPolicy } from '../api/retry.js';
import { ServiceApi } from '../api/service.js';
import type { RunningEmulator } from '../emulator/index.js';
import { UsageError } from '../errors.js';
import { retryLog } from '../api/retry-log.js';
import { EXIT } from '../exit-codes.js';
import type { Logger } from '../log.js';
import type { ConnectionOptions } from './options.js';

export interface Connection {
  readonly api: ServiceApi;
  /** Set with `--emulator`. */
  readonly emulator?: RunningEmulator;
  /** Where it is connected, for logs (never the token). */
  readonly target: string;
  /** Reads the token and secret files again and uses what changed (the daemon, before each cycle). */
  reloadCredentials(): Promise<ReloadResult>;
  /** The run failed: the retries a terminal held back are told (api/retry-log.ts). */
  failed(): Promise<void>;
  close(): Promise<void>;
}

export interface ConnectHooks {
  readonly onRetry?: (info: { route: string; attempt: number; delayMs: number; error: Error }) => void;
  readonly onCall?: (info: CallRecord) => void;
  /**
   * plan, apply, export: a person is waiting, so a host that cannot be reached
   * (refused, DNS, TLS, connect timeout) fails within seconds, naming the host
   * and the cause. The daemon leaves it unset and keeps backing off.
   */
  readonly failFast?: boolean;
  /**
   * A person at a terminal runs a one-shot command: retries are logged at
   * `debug` and told at `warn` only if the run fails (api/retry-log.ts).
   */
  readonly holdRetries?: boolean;
}

/** How long a one-shot command waits for a TCP and TLS handshake; a reachable API takes well under a second. */
const ONE_SHOT_CONNECT_TIMEOUT_MS = 5_000;

export async function connect(options: ConnectionOptions, logger: Logger, hooks: ConnectHooks = {}): Promise<Connection> {
  if (options.emulator && options.apiUrl) {
    throw new UsageError('--emulator and --api-url (RAMPART_API_URL) exclude each other: choose one');
  }
  let emulator: RunningEmulator | undefined;
  let baseUrl: string;
  let credentials: Credentials;
  const sources = { tokenFile: options.apiTokenFile, secretFile: options.apiSecretFile };
  if (options.emulator) {
    const token = randomBytes(24).toString('hex');
    // Loaded only here: every command against a real API starts without the emulator's code.
    const { startEmulator } = await import('../emulator/index.js');
    emulator = await startEmulator({
      token,
      port: 0,
      ...(options.emulatorData ? { dataFile: options.emulatorData } : {}),
      ...(options.emulatorLag !== undefined ? { listingLagMs: options.emulatorLag } : {}),
      logger,
    });
    baseUrl = emulator.url;
    credentials = { token };
    logger.info({ url: emulator.url, dataFile: options.emulatorData ?? null }, 'started the embedded emulator');
  } else {
    if (!options.apiUrl) {
      throw new UsageError('no API URL: set --api-url or RAMPART_API_URL (or use --emulator to try Rampart without an account)');
    }
    baseUrl = checkUrl(options.apiUrl);
    credentials = await resolveCredentials(sources);
  }
  const apiLogger = logger.child({ module: 'api' });
  const retries = retryLog(apiLogger, hooks.holdRetries ?? false);
  const http = new ApiClient({
    baseUrl,
    credentials,
    connections: options.concurrency,
    requestTimeoutMs: options.requestTimeout,
    ...(hooks.failFast ? { connectTimeoutMs: ONE_SHOT_CONNECT_TIMEOUT_MS } : {}),
    retry: retryPolicyFromEnv(process.env, hooks.failFast ? ONE_SHOT_RETRY_POLICY : DEFAULT_RETRY_POLICY),
    onRetry: (info) => {
      retries.retried(info);
      hooks.onRetry?.(info);
    },
    onCall: (record) => {
      // Method, route, status, time and sizes: never a header (the token) nor a body.
      apiLogger.trace({ ...record }, 'api call');
      hooks.onCall?.(record);
    },
  });
  const reloader = emulator ? undefined : credentialReloader(sources, credentials, (next) => http.setCredentials(next), logger.child({ module: 'credentials' }));
  return {
    api: new ServiceApi(http, options.ipApi),
    reloadCredentials: () => reloader?.reload() ?? Promise.resolve('not-from-files'),
    failed: () => retries.failed(),
    ...(emulator ? { emulator } : {}),
    target: emulator ? `embedded emulator at ${emulator.url}` : new URL(baseUrl).origin,
    async close() {
      await http.close();
      await emulator?.close();
    },
  };
}

/**
 * A one-shot command's work on its connection, which is closed after it. A
 * run that fails (throws, or ends with a failing exit code) first tells the
 * retries a terminal held back.
 */
export async function runConnected(connection: Connection, work: () => Promise<number>): Promise<number> {
  try {
    const code = await work();
    if (code === EXIT.error) await connection.failed();
    return code;
  } catch (error) {
    await connection.failed();
    throw error;
  } finally {
    await connection.close();
  }
}

/**
 * `RAMPART_RETRY_BASE_MS` (undocumented, for tests and drills): the first
 * backoff step instead of 1 s; the cap scales with it (30 × base), and so does
 * a one-shot command's patience with an unreachable host (5 × base).
 * Retry-After is still honoured as the server sends it.
 */
export function retryPolicyFromEnv(env: NodeJS.ProcessEnv = process.env, policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryPolicy {
  const raw = env.RAMPART_RETRY_BASE_MS;
  if (raw === undefined || raw === '') return policy;
  const base = Number(raw);
  if (!Number.isInteger(base) || base < 1) throw new UsageError(`RAMPART_RETRY_BASE_MS must be a positive integer, got "${raw}"`);
  return {
    ...policy,
    baseDelayMs: base,
    maxDelayMs: base * 30,
    ...(policy.unreachableGiveUpMs !== undefined ? { unreachableGiveUpMs: base * 5 } : {}),
  };
}

function checkUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--api-url is not a URL: "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--api-url must be http(s), got ${url.protocol}`);
  if (url.username || url.password) throw new UsageError('--api-url must not carry credentials; use the token settings');
  return url.toString();
}
