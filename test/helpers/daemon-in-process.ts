/**
 * The daemon in process: the real cycle (reconcile/cycle.ts), loop, watcher and
 * endpoints, wired as `rampart run` wires them, against an emulator over HTTP,
 * without spawning a process. Resyncs are asked for (`resync()`) instead of
 * waited for, retries and backoff are short, and waiting for a cycle is driven
 * by its log line, not by polling: tests of what the daemon does run in a
 * fraction of a second. Process behaviour (signals, exit codes, flags) stays
 * with the spawned tests of test/integration/daemon/.
 */
import { Writable } from 'node:stream';
import { ApiClient } from '../../src/api/client.js';
import { DEFAULT_RETRY_POLICY } from '../../src/api/retry.js';
import { ServiceApi } from '../../src/api/service.js';
import { WriteJournal } from '../../src/live/write-journal.js';
import { DaemonMetrics } from '../../src/daemon/metrics.js';
import { PauseSwitch, startDaemon, type BackoffOptions, type RunningDaemon } from '../../src/daemon/index.js';
import { createLogger } from '../../src/log.js';
import { createCycle } from '../../src/reconcile/cycle.js';
import { onCleanup, parseMetrics, type HttpAnswer, type LogLine, type Metrics } from './daemon.js';
import { TEST_TOKEN } from './emulator.js';
import { runSettings } from '../../src/reconcile/settings.js';

export interface InProcessDaemonOptions {
  readonly apiUrl: string;
  readonly policies: string;
  /** The API token; default the emulator's (TEST_TOKEN). */
  readonly token?: string;
  /** Default 1 h: resyncs come from `resync()`. */
  readonly intervalMs?: number;
  readonly settleTimeoutMs?: number;
  readonly concurrency?: number;
  readonly dryRun?: boolean;
  /** `run --allow-empty`. */
  readonly allowEmpty?: boolean;
  /** `run --adopt`. */
  readonly adopt?: boolean;
  /** The wait before a cycle after a failed one; default 20 ms, doubling up to 100 ms. */
  readonly backoff?: BackoffOptions;
  /** Enables `POST /pause` and `DELETE /pause` (`--admin-token-file`). */
  readonly adminTokenFile?: string;
}

export interface InProcessDaemon {
  /** Base URL of /healthz, /readyz, /metrics, /plan. */
  readonly url: string;
  readonly daemon: RunningDaemon;
  get(pathname: string): Promise<HttpAnswer>;
  metrics(): Promise<Metrics>;
  /** JSON log lines so far. */
  logs(): LogLine[];
  /** `cycle finished` lines so far, in order. */
  cycles(): LogLine[];
  /** Resolves with the first `cycle finished` line after the first `after` cycles that matches `predicate`. */
  waitForCycle(predicate: (line: LogLine) => boolean, what: string, options?: { after?: number; timeoutMs?: number }): Promise<LogLine>;
  /** Asks for a resync now, as the interval timer does. */
  resync(): void;
  /** Stops gracefully (the running cycle finishes); resolves once everything stopped. */
  stop(): Promise<void>;
}

/** Starts the daemon; stopped by `cleanupDaemons()` if the test does not stop it. */
export async function startInProcessDaemon(options: InProcessDaemonOptions): Promise<InProcessDaemon> {
  const lines: LogLine[] = [];
  const listeners = new Set<() => void>();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as LogLine);
      for (const listener of [...listeners]) listener();
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination: sink });
  const metrics = new DaemonMetrics({ processMetrics: false });
  // As the spawned tests run with RAMPART_RETRY_BASE_MS=10.
  const http = new ApiClient({
    baseUrl: options.apiUrl,
    credentials: { token: options.token ?? TEST_TOKEN },
    retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 10, maxDelayMs: 300 },
    onCall: ({ route, status }) => metrics.recordApiCall(route, status),
    onRetry: ({ route }) => metrics.recordRetry(route),
  });
  const pause = new PauseSwitch();
  const cycle = createCycle({
    pause: () => pause.current,
    policies: options.policies,
    api: new ServiceApi(http),
    journal: new WriteJournal(120_000),
    settings: runSettings({
      dryRun: options.dryRun ?? false,
      concurrency: options.concurrency ?? 4,
      settleTimeoutMs: options.settleTimeoutMs ?? 30_000,
      allowEmpty: options.allowEmpty ?? false,
      adopt: options.adopt ?? false,
    }),
  });
  const stop = new AbortController();
  const daemon = await startDaemon({
    dir: options.policies,
    cycle,
    intervalMs: options.intervalMs ?? 3_600_000,
    jitterRatio: 0,
    backoff: options.backoff ?? { baseMs: 20, maxMs: 100 },
    listen: '127.0.0.1:0',
    logger,
    metrics,
    signal: stop.signal,
    ...(options.adminTokenFile !== undefined ? { admin: { tokenFile: options.adminTokenFile, pause } } : {}),
  });
  let stopped: Promise<void> | undefined;
  const stopAll = (): Promise<void> => {
    stopped ??= (async () => {
      stop.abort();
      await daemon.done;
      await http.close();
    })();
    return stopped;
  };
  onCleanup(stopAll);
  await daemon.watching;

  const cycles = () => lines.filter((l) => l.msg === 'cycle finished');
  const get = async (pathname: string): Promise<HttpAnswer> => {
    const response = await fetch(`${daemon.url}${pathname}`);
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  };
  return {
    url: daemon.url ?? '',
    daemon,
    get,
    metrics: async () => parseMetrics((await get('/metrics')).text),
    logs: () => [...lines],
    cycles,
    waitForCycle: (predicate, what, { after = 0, timeoutMs = 10_000 } = {}) => new Promise<LogLine>((resolve, reject) => {
      const check = (): void => {
        const found = cycles().slice(after).find(predicate);
        if (!found) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        const seen = cycles().map((c) => `${String(c.result)} ${JSON.stringify(c.reasons)}`).join('\n');
        reject(new Error(`timed out after ${timeoutMs} ms waiting for cycle: ${what}\n--- cycles ---\n${seen}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    }),
    resync: () => daemon.loop.request('resync'),
    stop: stopAll,
  };
}
