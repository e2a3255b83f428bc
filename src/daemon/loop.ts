/**
 * The level-based, single-flight reconcile loop. Events only request a cycle;
 * requests that arrive while a cycle runs fold into exactly one follow-up that
 * carries all their reasons. Between cycles the loop waits for a request, the
 * resync interval (± jitter) or, after a failed cycle, an exponential backoff.
 * Every cycle ends in exactly one recorded outcome: one log line and metrics.
 */
import { InternalError } from '../errors.js';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import type { DaemonMetrics } from './metrics.js';
import { isCycleOutcome, isSuccessfulResult, type Cycle, type CycleOutcome, type ShownPlan } from '../reconcile/outcome.js';
import { recordOutcomeMetrics } from './outcome-metrics.js';
import type { ConcurrentWriterSeen, DaemonState } from './state.js';
import { systemScheduler, type Scheduler } from './scheduler.js';
import { StatusHistory } from './status-page/history.js';
import { cycleRecord, type CycleRecord } from './cycle-record.js';

export interface BackoffOptions {
  /** Wait after the first failed cycle. */
  baseMs: number;
  /** Longest wait, however many cycles failed in a row. */
  maxMs: number;
}

export interface ReconcileLoopOptions {
  cycle: Cycle;
  /** Resync interval: a cycle runs at least this often without any request. */
  intervalMs: number;
  /** Spread of the interval and backoff waits, as a share (0.1 = ±10%). Default 0.1. */
  jitterRatio?: number;
  /** Default `{ baseMs: 1000, maxMs: intervalMs }`. */
  backoff?: BackoffOptions;
  logger?: Logger;
  metrics?: DaemonMetrics;
  /** The clock and the timers between cycles (tests inject their own). Default: the process's. */
  scheduler?: Scheduler;
  /** Random source in [0, 1) for jitter (tests). */
  random?: () => number;
  /** Called after each cycle, before the wait for the next one (the daemon returns memory then). */
  onIdle?: () => void;
}

export interface RunOptions {
  /** Aborting it makes `run` resolve at once, without waiting for the running cycle. */
  hardStop?: AbortSignal;
  /** The first cycle waits for it (the watcher in place); the loop is alive meanwhile. */
  firstCycleAfter?: Promise<void>;
}

/** Reasons kept per cycle; more are counted in one summary entry. */
const MAX_REASONS = 50;

export class ReconcileLoop implements DaemonState {
  alive = false;
  running = false;
  everSucceeded = false;
  lastOutcome: CycleOutcome | undefined;
  lastCycleId: string | undefined;
  lastSuccessAt: number | undefined;
  lastPlan: ShownPlan | undefined;
  lastCycle: CycleRecord | undefined;
  lastPlanCycle: CycleRecord | undefined;
  /** Cycles that failed in a row; drives the backoff. */
  consecutiveFailures = 0;
  concurrentWriter: ConcurrentWriterSeen | undefined;
  readonly history = new StatusHistory();

  private readonly options: ReconcileLoopOptions;
  private readonly logger: Logger;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private pending: string[] = [];
  private dropped = 0;
  private wake: (() => void) | undefined;
  private sequence = 0;
  private stopped = false;

  constructor(options: ReconcileLoopOptions) {
    if (!(options.intervalMs > 0)) throw new RangeError('intervalMs must be positive');
    this.options = options;
    this.logger = (options.logger ?? silentLogger()).child({ module: 'loop' });
    this.scheduler = options.scheduler ?? systemScheduler;
    this.random = options.random ?? Math.random;
  }

  /** Asks for a cycle. Any time; while a cycle runs, requests fold into one follow-up. */
  request(reason: string): void {
    if (this.stopped) {
      this.logger.debug({ reason }, 'request after stop ignored');
      return;
    }
    if (this.pending.includes(reason)) {
      // already folded
    } else if (this.pending.length < MAX_REASONS) this.pending.push(reason);
    else this.dropped += 1;
    this.wake?.();
  }

  /**
   * Runs an initial cycle, then one per request or resync, until `signal`
   * aborts; then resolves once the running cycle has finished (graceful).
   * The cycle sees the same `signal` and decides how to wind down.
   */
  async run(signal: AbortSignal, options: RunOptions = {}): Promise<void> {
    if (this.alive || this.running) throw new InternalError('ReconcileLoop is already running');
    this.alive = true;
    this.stopped = false;
    this.logger.info({ intervalMs: this.options.intervalMs }, 'reconcile loop started');
    try {
      if (options.firstCycleAfter) await raceAbort(options.firstCycleAfter, options.hardStop ? AbortSignal.any([signal, options.hardStop]) : signal);
      let reasons = ['initial', ...this.drain()];
      while (!signal.aborted && !options.hardStop?.aborted) {
        const cycle = this.runCycle(reasons, signal);
        await (options.hardStop ? raceAbort(cycle, options.hardStop) : cycle);
        if (signal.aborted || options.hardStop?.aborted) break;
        this.options.onIdle?.();
        reasons = await this.nextTrigger(signal, options.hardStop);
      }
    } finally {
      this.stopped = true;
      this.alive = false;
      this.wake = undefined;
      this.logger.info({ hard: options.hardStop?.aborted === true }, 'reconcile loop stopped');
    }
  }

  /** Runs and records a single cycle (for `run --once`). */
  runOnce(signal: AbortSignal, reason = 'once'): Promise<CycleOutcome> {
    if (this.alive || this.running) return Promise.reject(new InternalError('ReconcileLoop is already running'));
    return this.runCycle([reason, ...this.drain()], signal);
  }

  /** The wait before the next automatic cycle, jitter included. */
  nextDelayMs(): number {
    const jitter = this.options.jitterRatio ?? 0.1;
    const spread = (base: number): number => Math.max(0, base * (1 + (this.random() * 2 - 1) * jitter));
    // A failure waiting cannot mend is not retried on a backoff: the interval only re-reads the credentials.
    if (this.consecutiveFailures === 0 || this.lastOutcome?.waiting !== undefined) return spread(this.options.intervalMs);
    const backoff = this.options.backoff ?? { baseMs: 1000, maxMs: this.options.intervalMs };
    const exponential = backoff.baseMs * 2 ** Math.min(this.consecutiveFailures - 1, 30);
    return Math.min(backoff.maxMs, spread(Math.min(backoff.maxMs, exponential)));
  }

  private drain(): string[] {
    const reasons = this.pending;
    if (this.dropped > 0) reasons.push(`+${this.dropped} more requests`);
    this.pending = [];
    this.dropped = 0;
    return reasons;
  }

  /** Waits for a request, the resync timer or backoff, or a stop; returns the reasons. */
  private async nextTrigger(signal: AbortSignal, hardStop?: AbortSignal): Promise<string[]> {
    if (this.pending.length > 0) return this.drain();
    const delayMs = this.nextDelayMs();
    const timerReason = this.consecutiveFailures > 0 ? 'retry after failure' : 'resync';
    this.logger.debug({ delayMs: Math.round(delayMs), next: timerReason }, 'waiting for the next cycle');
    return new Promise<string[]>((resolve) => {
      const finish = (reasons: string[]): void => {
        this.scheduler.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        hardStop?.removeEventListener('abort', onAbort);
        this.wake = undefined;
        resolve(reasons);
      };
      const onAbort = (): void => finish([]);
      const timer = this.scheduler.setTimeout(() => finish([timerReason, ...this.drain()]), delayMs);
      this.wake = () => finish(this.drain());
      signal.addEventListener('abort', onAbort, { once: true });
      hardStop?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private nextCycleId(): string {
    this.sequence += 1;
    return `${this.sequence}-${randomBytes(2).toString('hex')}`;
  }

  private async runCycle(reasons: string[], signal: AbortSignal): Promise<CycleOutcome> {
    const cycleId = this.nextCycleId();
    const logger = this.logger.child({ cycle: cycleId });
    const startedAt = this.scheduler.now();
    this.running = true;
    this.lastCycleId = cycleId;
    this.options.metrics?.setCycleInProgress(true);
    logger.info({ reasons }, 'cycle started');
    let outcome: CycleOutcome;
    try {
      const value: unknown = await Promise.resolve().then(() =>
        this.options.cycle({ cycleId, reasons, signal, logger }));
      outcome = isCycleOutcome(value)
        ? value
        : { result: 'failed', error: new TypeError('the cycle returned no valid outcome') };
    } catch (error) {
      outcome = { result: 'failed', error };
    }
    this.record(cycleId, outcome, reasons, startedAt, logger);
    return outcome;
  }

  /** The one place a cycle's outcome is recorded: state, metrics, one log line. */
  private record(cycleId: string, outcome: CycleOutcome, reasons: string[], startedAt: number, logger: Logger): void {
    if (outcome.recheck) {
      // Nothing ran: the outcome in effect stays, and no metric counts the tick as another failed cycle.
      this.running = false;
      this.options.metrics?.setCycleInProgress(false);
      logger.debug({ reasons, waiting: outcome.waiting }, 'recheck finished');
      return;
    }
    const endedAt = this.scheduler.now();
    const seconds = Math.max(0, endedAt - startedAt) / 1000;
    const { result } = outcome;
    const succeeded = isSuccessfulResult(result);
    this.running = false;
    this.lastOutcome = outcome;
    this.lastCycle = cycleRecord(cycleId, outcome, startedAt, endedAt);
    this.history.record(cycleId, outcome, startedAt, endedAt);
    if (outcome.plan !== undefined) {
      this.lastPlan = outcome.plan;
      this.lastPlanCycle = this.lastCycle;
    }
    if (succeeded) {
      this.everSucceeded = true;
      this.lastSuccessAt = endedAt;
    }
    this.consecutiveFailures = result === 'failed' ? this.consecutiveFailures + 1 : 0;
    const copies = Object.values(outcome.concurrentCopies ?? {}).reduce((sum, n) => sum + n, 0);
    if (copies > 0) this.concurrentWriter = { at: endedAt, copies, total: (this.concurrentWriter?.total ?? 0) + copies };

    if (this.options.metrics) recordOutcomeMetrics(this.options.metrics, outcome, seconds, endedAt);

    const fields = {
      result, reasons, durationMs: Math.round(seconds * 1000),
      ...(outcome.changes ? { changes: outcome.changes } : {}),
      ...(outcome.held?.length ? { held: outcome.held.length } : {}),
      ...(outcome.revision ? { revision: outcome.revision.revision } : {}),
      ...(outcome.readRevision ? { readRevision: outcome.readRevision.revision } : {}),
      ...(outcome.paused ? { paused: outcome.paused.reason } : {}),
      ...(outcome.error !== undefined ? { err: outcome.error } : {}),
      ...(result === 'failed' ? { consecutiveFailures: this.consecutiveFailures } : {}),
    };
    if (result === 'failed') logger.error(fields, 'cycle finished');
    else if (result === 'invalid' || result === 'unsafe' || result === 'churn' || result === 'paused') logger.warn(fields, 'cycle finished');
    else logger.info(fields, 'cycle finished');
  }
}

/** Resolves when `promise` settles or `signal` aborts, whichever is first. */
function raceAbort(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    const settled = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    // Settled either way: a rejection is the caller's to handle, never an unhandled one here.
    promise.then(settled, settled);
  });
}
