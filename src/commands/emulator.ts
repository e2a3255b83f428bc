/** `rampart emulator`: serve the emulated service API until SIGTERM/SIGINT. */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { readSecret } from '../api/credentials.js';
import { IP_GRANULARITIES, type IpGranularity } from '../emulator/options.js';
import { UsageError } from '../errors.js';
import { parseListenAddress } from '../listen-address.js';
import { MAX_TIMER_MS, wholeNumber } from './options.js';
import { createLogger } from '../log.js';
import { onShutdownSignals } from '../signals.js';

interface EmulatorFlags {
  listen: string;
  token?: string;
  tokenFile?: string;
  secretFile?: string;
  data?: string;
  clients?: string;
  listingLag: string;
  ipGranularity: IpGranularity;
  undocumentedRewrites?: boolean;
  dropScopeDuplicates?: boolean;
  updateErrorsAsHttp200?: boolean;
  /** From `--no-extended-token`. */
  extendedToken: boolean;
  elevatedToken?: boolean;
  defaultControls?: boolean;
  maxBodyBytes?: string;
}

export function register(program: Command): void {
  program
    .command('emulator')
    .description('Serve the emulated service API (for tests, demos and local runs).')
    .option('--listen <host:port>', 'address to listen on; port 0 picks a free one', '127.0.0.1:8080')
    .addOption(new Option('--token <token>', 'API token clients must send (env RAMPART_EMULATOR_TOKEN)').conflicts('tokenFile'))
    .option('--token-file <file>', 'read the API token from a file')
    .option('--secret-file <file>', 'also require this X-ServiceApi-Secret')
    .option('--data <file>', 'persist state to this JSON file')
    .option('--clients <ids>', 'comma-separated account ids the token may use (others get 403)')
    .option('--listing-lag <ms>', 'delay before writes show in listings', '0')
    .addOption(new Option('--ip-granularity <mode>', 'IP objects per create request').choices(IP_GRANULARITIES).default('per-value'))
    .option('--undocumented-rewrites', 'store [method] condition values upper-cased and IP expiries rounded to the minute')
    .option('--drop-scope-duplicates', 'drop a newer one-per-scope rule (service_mode, ...) duplicating a live one shortly after its create')
    .option('--update-errors-as-http200', 'answer errors of PUT /v3/hint/{id} with HTTP 200 and the error status inside the envelope')
    .option('--no-extended-token', 'the token is not an extended admin token: disable_stamp writes get 403')
    .option('--elevated-token', 'the token has elevated rights: the hint listing also returns credential-stuffing rules')
    .option('--default-controls', 'every account holds the service\'s default abuse controls (brute, bola, enum, forced_browsing)')
    .option('--max-body-bytes <n>', 'larger request bodies get 413 (default 1 MiB)')
    .action(async (flags: EmulatorFlags) => {
      await serve(flags);
    });
}

async function serve(flags: EmulatorFlags): Promise<void> {
  const logger = createLogger();
  const { host, port } = parseListenAddress(flags.listen);
  const token = await readSecret('emulator token', { file: flags.tokenFile, value: flags.token ?? process.env.RAMPART_EMULATOR_TOKEN });
  if (!token) throw new UsageError('emulator: --token or --token-file is required');
  // Loaded when the command runs, so that the other commands start without it.
  const { startEmulator } = await import('../emulator/index.js');
  const emulator = await startEmulator({
    host,
    port,
    token,
    secret: await readSecret('emulator secret', { file: flags.secretFile }),
    dataFile: flags.data,
    clients: flags.clients === undefined ? undefined : parseIds(flags.clients),
    listingLagMs: wholeNumber('--listing-lag', { min: 0, max: MAX_TIMER_MS })(flags.listingLag),
    ipGranularity: flags.ipGranularity,
    undocumentedRewrites: flags.undocumentedRewrites === true,
    dropScopeDuplicates: flags.dropScopeDuplicates === true,
    updateErrorsAsHttp200: flags.updateErrorsAsHttp200 === true,
    extendedToken: flags.extendedToken,
    elevatedToken: flags.elevatedToken === true,
    defaultControls: flags.defaultControls === true,
    maxBodyBytes: flags.maxBodyBytes === undefined ? undefined : wholeNumber('--max-body-bytes', { min: 0 })(flags.maxBodyBytes),
    logger,
  });
  logger.info({ url: emulator.url, data: flags.data ?? null }, 'emulator listening');
  const stop = new AbortController();
  const disposeSignals = onShutdownSignals(stop, { logger });
  try {
    await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
    await emulator.close();
    logger.info('emulator stopped');
  } finally {
    disposeSignals();
  }
}

function parseIds(value: string): number[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  if (ids.length === 0 || !ids.every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new UsageError(`--clients must be comma-separated positive integers, got ${JSON.stringify(value)}`);
  }
  return ids;
}
