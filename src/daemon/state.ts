/** What the daemon's HTTP server shows of the loop. */
import type { CycleOutcome } from '../reconcile/outcome.js';

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
  readonly lastPlan: unknown;
}
