import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelay, withRetry } from '../../../src/api/retry.js';
import { errorFromStatus } from '../../../src/api/errors-from-response.js';
import { errorFromTransport } from '../../../src/api/errors-from-transport.js';
import { ApiValidationError } from '../../../src/errors.js';

const fast = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 50 };

describe('withRetry', () => {
  it('retries 429, 423 and 5xx, then returns the success', async () => {
    const failures = [errorFromStatus(429, {}), errorFromStatus(423, {}), errorFromStatus(503, {})];
    let calls = 0;
    const result = await withRetry(async () => {
      calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'ok';
    }, { idempotent: true, policy: fast });
    expect(result).toBe('ok');
    expect(calls).toBe(4);
  });

  it('never retries other 4xx', async () => {
    let calls = 0;
    await expect(withRetry(async () => {
      calls++;
      throw errorFromStatus(400, { body: { subnet: { error: 'invalid' } } });
    }, { idempotent: true, policy: fast })).rejects.toBeInstanceOf(ApiValidationError);
    expect(calls).toBe(1);
  });

  it('gives up after maxAttempts with the last error', async () => {
    let calls = 0;
    await expect(withRetry(async () => {
      calls++;
      throw errorFromStatus(503, {});
    }, { idempotent: true, policy: fast })).rejects.toMatchObject({ code: 'api_server' });
    expect(calls).toBe(4);
  });

  it('does not repeat a write that may have reached the server, but does retry one that never left', async () => {
    const reset = errorFromTransport(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), {});
    const refused = errorFromTransport(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), {});
    expect(isRetryable(reset, false)).toBe(false);
    expect(isRetryable(reset, true)).toBe(true);
    expect(isRetryable(refused, false)).toBe(true);
  });

  it('treats every 5xx on a write as possibly applied (checked, not repeated blindly), 423 and 429 as turned away', () => {
    for (const status of [500, 502, 503, 504]) {
      expect(isRetryable(errorFromStatus(status, {}), false)).toBe(false);
      expect(isRetryable(errorFromStatus(status, {}), true)).toBe(true);
    }
    for (const status of [423, 429]) expect(isRetryable(errorFromStatus(status, {}), false)).toBe(true);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const slow = { ...fast, baseDelayMs: 10_000, maxDelayMs: 10_000 };
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(withRetry(async () => {
      throw errorFromStatus(503, {});
    }, { idempotent: true, policy: slow, signal: controller.signal })).rejects.toMatchObject({ code: 'api_server' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('retryDelay', () => {
  it('honours Retry-After, capped', () => {
    const limited = errorFromStatus(429, { retryAfter: '2' });
    expect(retryDelay(1, limited, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(2_000);
    const huge = errorFromStatus(429, { retryAfter: '100000' });
    expect(retryDelay(1, huge, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(DEFAULT_RETRY_POLICY.maxRetryAfterMs);
  });

  it('backs off exponentially with jitter up to the cap', () => {
    const error = errorFromStatus(503, {});
    const policy = DEFAULT_RETRY_POLICY;
    expect(retryDelay(1, error, policy, () => 0)).toBe(500);
    expect(retryDelay(1, error, policy, () => 1)).toBe(1_000);
    expect(retryDelay(3, error, policy, () => 1)).toBe(4_000);
    expect(retryDelay(20, error, policy, () => 1)).toBe(30_000);
  });
});
