/**
 * The one reconciler behind `apply`, `adopt`, `run --once` and every daemon
 * cycle: given a plan made from the policies and the live state, guard it,
 * explain each write (audit/cause.ts), apply it and say how it ended, as one
 * typed outcome. What differs between the callers stays with them: `apply`
 * confirms a saved plan and prints; a cycle keeps the last good policies,
 * holds churn and pauses. Nothing here throws for a refused or failed plan:
 * the outcome says so, and each caller turns it into an exit code or a cycle
 * result.
 */
import { onlyPermanentFailures } from '../apply/run-change.js';
import type { ServiceApi } from '../api/service.js';
import { applyPlan } from '../apply/apply.js';
import type { ApplyReport } from '../apply/results.js';
import { declaredFingerprints, explainChanges, unknownCauseReason } from '../audit/cause.js';
import type { DeclaredFingerprints } from '../audit/declared-fingerprints.js';
import type { ChangeResult } from '../audit/change-result.js';
import { ApplyFailedError, UnsafePlanError } from '../errors.js';
import type { WriteJournal } from '../live/write-journal.js';
import type { Pause } from '../policy/pause.js';
import type { Logger } from '../log.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { checkSafety, hasChanges, type Plan } from '../plan/index.js';
import type { WriteSettings } from './settings.js';

export interface ReconcileInput {
  readonly plan: Plan;
  /** What the policies declare, and their digest: the fingerprints a converged run remembers. */
  readonly desired: DesiredState;
  readonly digest: string;
  /**
   * What the policies declare, when the caller has it already: a daemon whose
   * last converged cycle read the same policy files. Otherwise it is computed
   * from `desired` (a SHA-256 per declared IP value).
   */
  readonly declared?: DeclaredFingerprints | undefined;
  /** The live state the plan's causes are read against (the owner marks). */
  readonly live: LiveState;
  /** The last converged run's declarations, when remembered: tells drift from intent where no mark can. Read only when something is written. */
  readonly converged?: () => Promise<DeclaredFingerprints | undefined>;
  readonly settings: WriteSettings;
  readonly api: ServiceApi;
  readonly journal?: WriteJournal | undefined;
  /** Graceful stop: calls in flight finish, no new one starts. */
  readonly stop?: AbortSignal | undefined;
  readonly logger: Logger;
  /** The policy revision the plan was made from, for the audit records. */
  readonly revision?: string | undefined;
  /** What the failure message tells to do next: `run apply again to converge`. */
  readonly nextStep: string;
  /** Told after each change (progress). */
  readonly onResult?: (result: ChangeResult) => void;
  /**
   * The break-glass pause in effect (a `.rampart-pause` file, the daemon's
   * endpoint): the plan stands as made, nothing is written. The one gate every
   * writer passes, `apply` and the daemon's cycle alike.
   */
  readonly pause?: Pause | undefined;
}

/**
 * How a reconcile ended:
 * - `paused`: a pause is in effect; nothing written;
 * - `unsafe`: the guard refused the plan (mass delete without `--force`); nothing written;
 * - `dry-run`: planned only, as asked;
 * - `no-op`: nothing to change: the account matches the policies;
 * - `applied`: every change applied (or found already done);
 * - `failed`: some changes failed or were not attempted; `report` says which.
 * `declared` is what a converged run remembers (converged-memory.ts).
 */
export type Reconciled =
  | { readonly result: 'paused'; readonly plan: Plan; readonly pause: Pause }
  | { readonly result: 'unsafe'; readonly plan: Plan; readonly error: UnsafePlanError }
  | { readonly result: 'dry-run'; readonly plan: Plan }
  | { readonly result: 'no-op'; readonly plan: Plan; readonly declared: DeclaredFingerprints }
  | { readonly result: 'applied'; readonly plan: Plan; readonly report: ApplyReport; readonly declared: DeclaredFingerprints }
  | { readonly result: 'failed'; readonly plan: Plan; readonly report: ApplyReport; readonly error: ApplyFailedError };

export async function reconcile(input: ReconcileInput): Promise<Reconciled> {
  const { plan, settings } = input;
  if (input.pause) return { result: 'paused', plan, pause: input.pause };
  const safety = checkSafety(plan, { ...settings.limits, force: settings.force });
  if (!safety.ok) return { result: 'unsafe', plan, error: new UnsafePlanError(safety.message) };
  if (settings.dryRun) return { result: 'dry-run', plan };
  const declared = input.declared ?? declaredFingerprints(input.desired, input.digest);
  if (!hasChanges(plan)) return { result: 'no-op', plan, declared };

  const previous = await input.converged?.();
  const why = explainChanges(plan, input.live, declared, previous);
  const unknownCause = unknownCauseReason(previous !== undefined);
  const unknown = why.filter((w) => w.cause === 'unknown').length;
  // Said once, before the `write` records that carry `cause: unknown`.
  if (unknown > 0) input.logger.info({ writes: unknown }, `the cause of ${unknown} write(s) below is unknown: ${unknownCause}`);
  const report = await applyPlan(plan, {
    api: input.api,
    concurrency: settings.concurrency,
    stop: input.stop,
    logger: input.logger,
    journal: input.journal,
    settleTimeoutMs: settings.settleTimeoutMs,
    // The owner marks tell drift from intent where an object is there to read; the last converged run's memory, elsewhere.
    audit: {
      why,
      unknownCause,
      ...(input.revision !== undefined ? { revision: input.revision } : {}),
    },
    ...(input.onResult ? { onResult: input.onResult } : {}),
  });
  if (report.failed > 0 || report.skipped > 0) {
    // Where every failure is one a retry meets again (a missing right, a refused request), advising a retry misleads.
    const next = report.skipped === 0 && onlyPermanentFailures(report.results) ? 'a retry will not help: see why each failed' : input.nextStep;
    const error = new ApplyFailedError(`${report.failed} change(s) failed and ${report.skipped} were not attempted; ${next}`);
    return { result: 'failed', plan, report, error };
  }
  return { result: 'applied', plan, report, declared };
}

