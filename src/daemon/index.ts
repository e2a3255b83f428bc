/**
 * The daemon machinery, decoupled from what a cycle does: watch the policy
 * directory → request a cycle → single-flight loop → health, metrics and plan
 * endpoints. `runDaemon` wires them and resolves when the signal stops it.
 */
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import { ReconcileLoop, type BackoffOptions } from './loop.js';
import { DaemonMetrics } from './metrics.js';
import type { Cycle } from '../reconcile/outcome.js';
import type { PauseSwitch } from './pause-switch.js';
import { IdleMemory } from './release-memory.js';
import { startDaemonServer } from './server.js';
import { watchPolicyDirectory } from './watch.js';

export { ReconcileLoop, type BackoffOptions, type ReconcileLoopOptions, type RunOptions } from './loop.js';
export { DaemonMetrics, type ChangeAction, type DaemonMetricsOptions } from './metrics.js';
export {
  CYCLE_RESULTS, isCycleOutcome, isSuccessfulResult,
  type Cycle, type CycleContext, type CycleOutcome, type CycleResult,
} from '../reconcile/outcome.js';
export type { DaemonState } from './state.js';
export { startDaemonServer, type AdminOptions, type DaemonServer, type DaemonServerOptions } from './server.js';
export { PauseSwitch } from './pause-switch.js';
export { watchPolicyDirectory, type WatchOptions } from './watch.js';

export interface DaemonOptions {
  /** The policy directory; may be or lie under a git-sync link or a ConfigMap mount. */
  dir: string;
  cycle: Cycle;
  /** Resync interval in milliseconds. */
  intervalMs: number;
  /** `HOST:PORT` for the endpoints; omitted: no HTTP server. */
  listen?: string;
  /** Host names the endpoints answer besides IP literals and `localhost` (`--allowed-host`). */
  allowedHosts?: readonly string[];
  logger?: Logger;
  /** Graceful stop: no new cycles; the running one finishes. */
  signal: AbortSignal;
  /** Stop at once, without waiting for the running cycle. */
  hardStop?: AbortSignal;
  metrics?: DaemonMetrics;
  debounceMs?: number;
  jitterRatio?: number;
  backoff?: BackoffOptions;
  /** `POST /pause` and `DELETE /pause` for a bearer of the token in `tokenFile`; the cycle reads `pause`. */
  admin?: { readonly tokenFile: string; readonly pause: PauseSwitch };
  /** Collect the garbage of each cycle once it is over, and shrink the young generation once idle (release-memory.ts); `rampart run` sets it. */
  releaseMemoryWhenIdle?: boolean;
}

export interface RunningDaemon {
  /** The endpoints' base URL, when `listen` was given. */
  readonly url: string | undefined;
  readonly loop: ReconcileLoop;
  readonly metrics: DaemonMetrics;
  /** Resolves once the watcher is in place (or has given up). */
  readonly watching: Promise<void>;
  /** Resolves once the loop, the watcher and the server have stopped. */
  readonly done: Promise<void>;
}

/**
 * The longest the first cycle waits for the watcher to be in place. Each scan
 * the watcher waits for is bounded too (watch.ts); this bounds them all, so a
 * file system that never finishes one cannot keep the daemon from reconciling.
 */
const WATCHER_START_WAIT_MS = 10_000;

/** Resolves with `promise`, or after `ms` (calling `onTimeout`), whichever comes first. */
async function withinMs(promise: Promise<void>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve();
    }, ms);
    timer.unref();
  });
  await Promise.race([promise, late]);
  clearTimeout(timer);
}

/** Starts everything; rejects only if the server cannot listen (nothing else is started then). */
export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const logger = options.logger ?? silentLogger();
  const metrics = options.metrics ?? new DaemonMetrics();
  const memory = options.releaseMemoryWhenIdle ? new IdleMemory() : undefined;
  const loop = new ReconcileLoop({
    cycle: memory ? (context) => {
      memory.busy();
      return options.cycle(context);
    } : options.cycle,
    intervalMs: options.intervalMs,
    jitterRatio: options.jitterRatio,
    backoff: options.backoff,
    logger,
    metrics,
    ...(memory ? { onIdle: () => memory.idle() } : {}),
  });
  const server = options.listen !== undefined
    ? await startDaemonServer({
      listen: options.listen, loop, metrics, logger, allowedHosts: options.allowedHosts ?? [],
      ...(options.admin ? { admin: { ...options.admin, onChange: () => loop.request('pause changed') } } : {}),
    })
    : undefined;
  if (server) logger.info({ url: `${server.url}/` }, `status page: ${server.url}/`);

  let watcherReady = (): void => undefined;
  const watcherInPlace = new Promise<void>((resolve) => { watcherReady = resolve; });
  const stopWatching = options.hardStop ? AbortSignal.any([options.signal, options.hardStop]) : options.signal;
  const watching = watchPolicyDirectory(options.dir, (reason) => loop.request(reason), {
    signal: stopWatching,
    debounceMs: options.debounceMs,
    logger,
    onReady: () => watcherReady(),
  }).finally(() => watcherReady()).catch((error: unknown) => {
    logger.child({ module: 'watch' }).error({ err: error, dir: options.dir }, 'watcher stopped; only the resync interval triggers cycles now');
  });
  // The first cycle reads the policies once the watcher is in place, so no change lands unseen between the two.
  const running = loop.run(options.signal, {
    hardStop: options.hardStop,
    firstCycleAfter: withinMs(watcherInPlace, WATCHER_START_WAIT_MS, () => {
      logger.child({ module: 'watch' }).warn({ dir: options.dir, waitedMs: WATCHER_START_WAIT_MS }, 'watcher not in place yet; starting the first cycle without it');
    }),
  });

  const done = (async () => {
    try {
      await running;
      await watching;
    } finally {
      await server?.close();
    }
  })();
  return { url: server?.url, loop, metrics, watching: watcherInPlace, done };
}

/** Runs the daemon until `options.signal` (or `hardStop`) stops it. */
export async function runDaemon(options: DaemonOptions): Promise<void> {
  const daemon = await startDaemon(options);
  await daemon.done;
}
