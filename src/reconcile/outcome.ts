/**
 * What one reconcile cycle is given and what it ends in: the contract between
 * the cycle (reconcile/cycle.ts) and the loop that runs it (daemon/loop.ts),
 * which records exactly one outcome per cycle and is the only one to turn
 * outcomes into metrics.
 */
import type { AuditEntry } from '../audit/entry.js';
import type { Logger } from '../log.js';
import type { Pause } from '../policy/pause.js';
import type { PolicyRevision } from '../policy/revision.js';
import type { ObjectCounts } from '../plan/counts.js';
import { encodePlanBody, withFigures } from '../plan/codec.js';
import type { Plan } from '../plan/model.js';
import { once } from '../plan/once.js';
import type { PlanBody, PlanDocument } from '../plan/types.js';
import type { ChangeResult } from '../audit/change-result.js';
import type { HeldObject } from './churn-breaker.js';

export const CYCLE_RESULTS = ['success', 'no-op', 'skipped', 'invalid', 'failed', 'unsafe', 'churn', 'paused'] as const;

/**
 * - `success`: changes were applied; `no-op`: nothing to change.
 * - `churn`: as `success` or `no-op`, but the churn breaker held back objects
 *   whose creates did not stick (reconcile/churn-breaker.ts).
 * - `skipped`: the cycle deliberately applied nothing (dry-run, or nothing to do).
 * - `invalid`: a policy file is invalid; nothing applied.
 * - `unsafe`: the plan was refused by the safety guard.
 * - `failed`: anything else went wrong (API, I/O, a thrown error).
 * - `paused`: a pause (policy/pause.ts) is in effect; planned and reported, nothing written.
 */
export type CycleResult = (typeof CYCLE_RESULTS)[number];

/** One error of an invalid policy file, where it is and why. */
export interface PolicyProblem {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly code: string;
  readonly message: string;
}

export interface PolicyProblems {
  readonly count: number;
  readonly list: readonly PolicyProblem[];
}

/** The errors a cycle keeps for the status page; the count says how many more. */
export const MAX_PROBLEMS_KEPT = 200;

export interface CycleOutcome {
  result: CycleResult;
  /** Objects applied (`success`) or planned but not applied (`skipped`, `unsafe`), by the plan's vocabulary (plan/counts.ts). */
  changes?: ObjectCounts;
  /** Planned and not applied, where the result alone does not say (an `invalid` dry run). */
  pending?: ObjectCounts;
  error?: unknown;
  /** The plan the cycle computed: on the status page, and served by `GET /plan`. */
  plan?: ShownPlan;
  /** Objects the churn breaker keeps from being written. */
  held?: readonly HeldObject[];
  /** The revision of the policies the cycle planned from (the last good ones when the files are invalid). */
  revision?: PolicyRevision;
  /** The revision the cycle read, when it differs (invalid files keep the last good revision in effect). */
  readRevision?: PolicyRevision;
  /** The pause in effect, when the cycle found one. */
  paused?: Pause;
  /**
   * A failure waiting cannot mend (daemon/terminal-wait.ts): why, and what the
   * daemon waits for. No backoff then: the next cycle comes from a change.
   */
  waiting?: string;
  /**
   * While waiting: a timer tick that only re-read the credential files and
   * called nothing. No cycle ran, so the loop counts nothing again (metrics,
   * history, failures); the outcome it repeats stays the one in effect.
   */
  recheck?: boolean;
  /**
   * Whether the policy files were valid, once the cycle has read them (a
   * cycle that then fails on the API still knows); undefined when it failed before.
   */
  policyValid?: boolean;
  /** Invalid policy files: every error, as `validate` lists it (the first MAX_PROBLEMS_KEPT), and how many there are. */
  problems?: PolicyProblems;
  /** What became of each change the cycle applied (the loop counts them into metrics). */
  results?: readonly ChangeResult[];
  /** The audit record of each write the cycle made (audit/entry.ts), for the status page. */
  writes?: readonly AuditEntry[];
  /** Copies another writer of the same owner made at the same time, deleted by this cycle, by object kind. */
  concurrentCopies?: Readonly<Record<string, number>>;
}

export interface CycleContext {
  /** Short and unique per process, e.g. `7-3fa2`; bound on `logger` as `cycle`. */
  cycleId: string;
  /** Why this cycle runs: `initial`, `resync`, `retry`, or the watcher's reasons, folded. */
  reasons: string[];
  /** Aborted when the daemon stops: finish the call in flight, start no new one. */
  signal: AbortSignal;
  /** Bound to `{module: 'loop', cycle: cycleId}`. */
  logger: Logger;
}

export type Cycle = (ctx: CycleContext) => Promise<CycleOutcome>;

/**
 * Outcomes that count as a successful cycle (readiness, last-success time):
 * the cycle did its job, whether or not there was something to apply.
 */
export function isSuccessfulResult(result: CycleResult): boolean {
  return result === 'success' || result === 'no-op' || result === 'skipped' || result === 'churn' || result === 'paused';
}

const NONE: ObjectCounts = {};

/**
 * `rampart_plan_pending_changes` after a cycle: what it planned and did not
 * apply. Nothing planned (invalid files, unchanged content) or all applied is 0;
 * a failure before any plan applied nothing, so the last value still holds
 * (undefined: leave the gauge).
 */
export function pendingAfter(outcome: CycleOutcome): ObjectCounts | undefined {
  if (outcome.pending) return outcome.pending;
  switch (outcome.result) {
    case 'success':
    case 'no-op':
    case 'invalid':
      return NONE;
    case 'skipped':
    case 'unsafe':
    case 'paused':
      return outcome.changes ?? NONE;
    case 'failed':
      return outcome.changes;
  }
}

/** True when `value` is a well-formed outcome (guards against a cycle returning junk). */
export function isCycleOutcome(value: unknown): value is CycleOutcome {
  return typeof value === 'object' && value !== null
    && (CYCLE_RESULTS as readonly string[]).includes((value as { result?: unknown }).result as string);
}

/**
 * A cycle's plan as the daemon shows it until the next cycle: the body,
 * encoded once (the status page), and the whole document when `/plan` asks
 * for it (its checksum and digests computed then, once: most cycles nobody
 * asks, and hashing the policies every cycle is wasted).
 */
export interface ShownPlan {
  readonly body: PlanBody;
  document(): PlanDocument;
}

export function showPlan(plan: Plan): ShownPlan {
  // The live digest now: what the daemon keeps then holds no live state.
  plan.liveDigest();
  const body = encodePlanBody(plan);
  return { body, document: once(() => withFigures(body, plan)) };
}
