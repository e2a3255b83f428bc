/** What the daemon's HTTP server shows of the loop. */
import type { CycleOutcome, ShownPlan } from '../reconcile/outcome.js';
import type { CycleRecord } from './cycle-record.js';
import type { StatusHistory } from './status-page/history.js';

/** What the HTTP server shows; `ReconcileLoop` provides it. */
export interface DaemonState {
  /** True from `run()` until it resolves. */
  readonly alive: boolean;
  /** True while a cycle runs. */
  readonly running: boolean;
  readonly everSucceeded: boolean;
  readonly lastOutcome: CycleOutcome | undefined;
  readonly lastCycleId: string | undefined;
  /** Milliseconds since the epoch. */
  readonly lastSuccessAt: number | undefined;
  readonly lastPlan: ShownPlan | undefined;
  /** The last finished cycle. */
  readonly lastCycle?: CycleRecord;
  /** The cycle that computed `lastPlan`. */
  readonly lastPlanCycle?: CycleRecord;
  /** Cycles that failed in a row. */
  readonly consecutiveFailures?: number;
  /** The last cycles and writes, for the status page. */
  readonly history?: StatusHistory;
  /** The last time a cycle found and deleted another writer's copies (one writer per account is the rule). */
  readonly concurrentWriter?: ConcurrentWriterSeen;
}

export interface ConcurrentWriterSeen {
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** Copies deleted that time. */
  readonly copies: number;
  /** Copies deleted since the daemon started. */
  readonly total: number;
}
