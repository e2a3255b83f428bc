/**
 * A cycle's outcome as metrics: the only place outcomes become metrics, so a
 * gauge is never set from two places that could disagree.
 */
import { changeCounts } from '../plan/change-counts.js';
import type { ObjectAction } from '../plan/counts.js';
import { isSuccessfulResult, pendingAfter, type CycleOutcome } from '../reconcile/outcome.js';
import type { DaemonMetrics } from './metrics.js';

export function recordOutcomeMetrics(metrics: DaemonMetrics, outcome: CycleOutcome, seconds: number, endedAt: number): void {
  const { result } = outcome;
  metrics.setCycleInProgress(false);
  metrics.recordCycle(result, seconds);
  const valid = policyValidity(outcome);
  if (valid !== undefined) metrics.setPolicyValid(valid);
  if (isSuccessfulResult(result)) metrics.setLastSuccess(endedAt);
  // Set once the churn breaker has looked at a plan; a paused cycle writes nothing, so it holds nothing new.
  if (outcome.plan !== undefined && result !== 'paused') metrics.setChurnHeld(outcome.held?.length ?? 0);
  for (const written of outcome.results ?? []) {
    const { change } = written;
    if (written.status === 'applied') {
      for (const [action, n] of Object.entries(changeCounts(change))) metrics.recordApplied(action as ObjectAction, change.kind, n);
      metrics.recordWriteCause(written.cause ?? 'unknown', change.kind);
    }
    if (written.rewrites?.length) metrics.recordServerRewrite(change.kind);
  }
  for (const [kind, n] of Object.entries(outcome.concurrentCopies ?? {})) metrics.recordConcurrentCopies(kind, n);
  const pending = pendingAfter(outcome);
  if (pending) metrics.setPendingChanges(pending);
  // A cycle that failed before it read the policies leaves both as they were.
  if (outcome.revision) metrics.setPolicyRevision(outcome.revision);
  if (outcome.revision || outcome.paused || result !== 'failed') metrics.setPaused(outcome.paused?.since);
}

/**
 * What the cycle found of the files. A cycle that does not say (a scripted
 * one, a terminal wait): `invalid` means invalid; `failed` and `unsafe` say
 * nothing about the files (an unsafe plan may come from the last good
 * policies while the files are invalid), so the gauge stays.
 */
function policyValidity(outcome: CycleOutcome): boolean | undefined {
  if (outcome.policyValid !== undefined) return outcome.policyValid;
  if (outcome.result === 'invalid') return false;
  return outcome.result === 'failed' || outcome.result === 'unsafe' ? undefined : true;
}
