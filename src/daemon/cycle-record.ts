/**
 * What the endpoints say about a finished cycle: when it ran, which policy
 * revision it planned from, and what became of its plan. Pure.
 */
import type { Pause } from '../policy/pause.js';
import type { PolicyRevision } from '../policy/revision.js';
import type { CycleOutcome, CycleResult, PolicyProblems } from '../reconcile/outcome.js';

/**
 * What became of the cycle's plan:
 * - `applied`: every change was made (or there was none: `nothing-to-do`);
 * - `refused`: the safety guard or the churn breaker kept changes back;
 * - `paused`: a pause is in effect, nothing was written;
 * - `dry-run`: planned only (`--dry-run`, or the content had not changed);
 * - `invalid`: the files are invalid; the last good policies were planned, if any;
 * - `failed`: reading, planning or applying failed.
 */
export type PlanStatus = 'applied' | 'nothing-to-do' | 'refused' | 'paused' | 'dry-run' | 'invalid' | 'failed';

const STATUS: Readonly<Record<CycleResult, PlanStatus>> = {
  'success': 'applied',
  'no-op': 'nothing-to-do',
  'skipped': 'dry-run',
  'invalid': 'invalid',
  'failed': 'failed',
  'unsafe': 'refused',
  'churn': 'refused',
  'paused': 'paused',
};

export interface CycleRecord {
  readonly id: string;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly result: CycleResult;
  readonly status: PlanStatus;
  readonly revision?: PolicyRevision;
  readonly readRevision?: PolicyRevision;
  readonly paused?: { readonly reason: string; readonly since: string; readonly by: string };
  /** The error's message, when the cycle did not succeed. */
  readonly error?: string;
  /** Invalid policy files: their errors, and how many there are. */
  readonly problems?: PolicyProblems;
}

export function cycleRecord(id: string, outcome: CycleOutcome, startedAt: number, finishedAt: number): CycleRecord {
  return {
    id,
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(finishedAt).toISOString(),
    result: outcome.result,
    status: STATUS[outcome.result],
    ...(outcome.revision ? { revision: outcome.revision } : {}),
    ...(outcome.readRevision ? { readRevision: outcome.readRevision } : {}),
    ...(outcome.paused ? { paused: shownPause(outcome.paused) } : {}),
    ...(outcome.error !== undefined ? { error: errorMessage(outcome.error) } : {}),
    ...(outcome.problems ? { problems: outcome.problems } : {}),
  };
}

export function shownPause(pause: Pause): { reason: string; since: string; by: string } {
  return { reason: pause.reason, since: new Date(pause.since).toISOString(), by: pause.by };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined ? 'unknown error' : String(error);
}
