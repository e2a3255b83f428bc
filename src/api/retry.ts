/**
 * The one retry policy: which failures are retried, how often, how long to wait.
 * 429 honours Retry-After; 423, 5xx, resets and timeouts back off exponentially
 * with full jitter up to a cap. Other 4xx are never retried. Writes that may
 * have reached the server (a reset or timeout after the request was sent) are
 * not blindly repeated: the caller checks the listing instead. A host that
 * cannot be reached at all is retried for a few seconds only where a person is
 * waiting (ONE_SHOT_RETRY_POLICY); the daemon keeps backing off.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, ApiRateLimitedError, isRampartError } from '../errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Longest Retry-After we wait for before giving up on that call. */
  readonly maxRetryAfterMs: number;
  /**
   * When set: stop retrying a call whose host could not be reached at all
   * (`ApiError.unreachable`) once the next attempt would start this long after
   * the first. Unset: such failures back off like any other.
   */
  readonly unreachableGiveUpMs?: number;
}

/** Public clients of the service retry from 1 s up to 30 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/**
 * plan, apply, export: a wrong host, a refused port or an untrusted certificate
 * is a setting to fix, not an outage to wait out; say so within seconds.
 */
export const ONE_SHOT_RETRY_POLICY: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  unreachableGiveUpMs: 3_000,
};

export interface RetryContext {
  /** False for a create: a call that may have gone through must not be repeated. */
  readonly idempotent: boolean;
  readonly signal?: AbortSignal;
  readonly policy?: RetryPolicy;
  /** Told before each wait; for logs and metrics. */
  readonly onRetry?: (info: { attempt: number; delayMs: number; error: ApiError }) => void;
  /** Injectable for tests. */
  readonly random?: () => number;
}

/** True for an API error raised after the request may have reached the server. */
export function mayHaveBeenApplied(error: unknown): boolean {
  return error instanceof ApiError && error.mayHaveBeenApplied;
}

export function isRetryable(error: unknown, idempotent: boolean): boolean {
  if (!isRampartError(error) || !error.retryable) return false;
  return idempotent || !mayHaveBeenApplied(error);
}

/** Full-jitter exponential backoff, or the server's Retry-After when it gave one. */
export function retryDelay(attempt: number, error: unknown, policy: RetryPolicy, random: () => number): number {
  if (error instanceof ApiRateLimitedError && error.retryAfterMs !== undefined) {
    return Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export async function withRetry<T>(call: () => Promise<T>, context: RetryContext): Promise<T> {
  const policy = context.policy ?? DEFAULT_RETRY_POLICY;
  const random = context.random ?? Math.random;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    context.signal?.throwIfAborted();
    try {
      return await call();
    } catch (error) {
      if (attempt >= policy.maxAttempts || !isRetryable(error, context.idempotent)) throw error;
      if (context.signal?.aborted) throw error;
      const delayMs = retryDelay(attempt, error, policy, random);
      if (givesUpOnUnreachable(error, policy, Date.now() - started + delayMs)) throw error;
      context.onRetry?.({ attempt, delayMs, error: error as ApiError });
      try {
        await sleep(delayMs, undefined, { signal: context.signal });
      } catch {
        // Aborted while waiting: the caller wants to stop; report the real failure.
        throw error;
      }
    }
  }
}

function givesUpOnUnreachable(error: unknown, policy: RetryPolicy, nextAttemptAfterMs: number): boolean {
  if (policy.unreachableGiveUpMs === undefined) return false;
  return error instanceof ApiError && error.unreachable && nextAttemptAfterMs > policy.unreachableGiveUpMs;
}
