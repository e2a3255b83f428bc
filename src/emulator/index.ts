/**
 * The service API emulator: the endpoints of the Attack Protection Service,
 * with the real service's quirks (envelope, normalization, listing lag, IP
 * granularity, faults), each switchable. Embedded by tests and `--emulator`;
 * served standalone by `rampart emulator`.
 */
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { silentLogger } from '../log.js';
import { createAdminHandler } from './admin.js';
import { CallLog } from './calllog.js';
import { createControl, type EmulatorControl } from './control.js';
import { EmulatorCore } from './core.js';
import { FaultScript } from './faults.js';
import { configProblem, DEFAULT_MAX_BODY_BYTES, initialConfig, type EmulatorOptions } from './options.js';
import { loadState, Persister, serializeState } from './persistence.js';
import { createApiServer } from './server.js';
import { emptyState } from './store.js';
import { isPositiveInt } from './validate.js';

export type { EmulatorOptions, EmulatorConfig, IpGranularity } from './options.js';
export type { EmulatorControl, StateView } from './control.js';
export type { FaultSpec, FaultKind, ActiveFault } from './faults.js';
export type { CallRecord, CallOutcome } from './calllog.js';
export type { HintRecord, IpObject, ConditionRecord, ActionRecord } from './store.js';
export type { HintSeed, IpObjectSeed } from './seed.js';
export type { Attack, Vuln, DemoCounts } from './demo/data.js';

export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly control: EmulatorControl;
  /** Stops listening, drops open connections (hung ones too) and flushes the data file. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  checkOptions(options);
  const logger = (options.logger ?? silentLogger()).child({ module: 'emulator' });
  const dataFile = options.dataFile;
  const state = dataFile ? await loadState(dataFile) : emptyState();
  let persister: Persister | undefined;
  const core = new EmulatorCore(
    state,
    initialConfig(options),
    options.now ?? Date.now,
    options.clients ? new Set(options.clients) : undefined,
    () => persister?.markDirty(),
  );
  if (dataFile) {
    persister = new Persister(dataFile, () => serializeState(core.state));
    // Write once now: a data file we cannot write is a startup error, not a surprise later.
    persister.markDirty();
    await persister.flush();
  }
  for (const id of options.clients ?? []) core.demo.get(id, core.nowSeconds());

  const flush = () => persister?.flush() ?? Promise.resolve();
  const faults = new FaultScript();
  const calls = new CallLog();
  const control = createControl({ core, faults, calls, flush, logger });
  const credentials = { token: options.token, secret: options.secret };
  const server = createApiServer({
    core, faults, calls, credentials, logger, flush,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    admin: createAdminHandler(control, credentials),
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    throw new UsageError(`emulator cannot listen on ${host}:${options.port ?? 0}: ${(error as Error).message}`, { cause: error });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.debug({ url, dataFile, config: core.config }, 'emulator listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    host,
    port,
    control,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(flush);
      return closing;
    },
  };
}

function checkOptions(options: EmulatorOptions): void {
  if (typeof options.token !== 'string' || options.token === '') throw new UsageError('emulator: a token is required');
  if (options.secret === '') throw new UsageError('emulator: the secret must not be empty');
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) {
    throw new UsageError(`emulator: invalid port ${options.port}`);
  }
  if (options.clients && !options.clients.every(isPositiveInt)) {
    throw new UsageError('emulator: clients must be positive integers');
  }
  if (options.maxBodyBytes !== undefined && !isPositiveInt(options.maxBodyBytes)) {
    throw new UsageError('emulator: maxBodyBytes must be a positive integer');
  }
  const problem = configProblem(initialConfig(options));
  if (problem) throw new UsageError(`emulator: ${problem}`);
}
