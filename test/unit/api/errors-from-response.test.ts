import { describe, expect, it } from 'vitest';
import { describeBody, errorFromStatus, parseRetryAfter } from '../../../src/api/errors-from-response.js';
import { errorFromTransport } from '../../../src/api/errors-from-transport.js';
import { isRetryable, mayHaveBeenApplied } from '../../../src/api/retry.js';
import { ApiRateLimitedError } from '../../../src/errors.js';

describe('errorFromStatus', () => {
  it.each([
    [401, 'api_auth'], [403, 'api_auth'], [404, 'api_not_found'], [409, 'api_conflict'], [423, 'api_locked'],
    [429, 'api_rate_limited'], [500, 'api_server'], [503, 'api_server'], [400, 'api_validation'], [422, 'api_validation'],
  ])('maps %i to %s', (status, code) => {
    expect(errorFromStatus(status, { method: 'POST', route: '/v1/objects/hint' }).code).toBe(code);
  });

  it("carries the API's own message", () => {
    const error = errorFromStatus(400, { method: 'POST', route: 'POST /v4/ip_rules', body: { ip_rule: { subnet: { error: 'is invalid' } } } });
    expect(error.message).toContain('ip_rule: subnet: is invalid');
    expect(error.message).toContain('POST /v4/ip_rules answered 400');
  });

  it('declares what the retry policy needs: Retry-After on a 429, and that a 5xx may have been applied', () => {
    const limited = errorFromStatus(429, { retryAfter: '2' });
    expect(limited).toBeInstanceOf(ApiRateLimitedError);
    expect((limited as ApiRateLimitedError).retryAfterMs).toBe(2_000);
    expect(limited.mayHaveBeenApplied).toBe(false);
    expect(errorFromStatus(502, {}).mayHaveBeenApplied).toBe(true);
    expect(mayHaveBeenApplied(errorFromStatus(503, {}))).toBe(true);
    expect(mayHaveBeenApplied(errorFromStatus(400, {}))).toBe(false);
  });

  it('says plainly that the token is the problem on 403', () => {
    const error = errorFromStatus(403, { body: { permissions: { error: 'invalid', reason: 'check access failed' } } });
    expect(error.message).toMatch(/token is wrong or lacks rights/);
    expect(error.message).toContain('check access failed');
  });
});

describe('errorFromTransport', () => {
  it('never retries a request undici refused to send (an invalid header)', () => {
    const cause = Object.assign(new Error('invalid x-serviceapi-token header'), { code: 'UND_ERR_INVALID_ARG' });
    const error = errorFromTransport(cause, { method: 'POST', route: 'POST /v1/objects/hint' });
    expect(error.code).toBe('api_request');
    expect(isRetryable(error, true)).toBe(false);
    expect(error.message).toContain('POST /v1/objects/hint could not be sent');
  });

  it('knows a refused connection never sent the request, and a reset may have', () => {
    const refused = errorFromTransport(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), {});
    const reset = errorFromTransport(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), {});
    const headers = errorFromTransport(Object.assign(new Error('slow'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), {});
    expect([refused.mayHaveBeenApplied, reset.mayHaveBeenApplied, headers.mayHaveBeenApplied]).toEqual([false, true, true]);
    // A create is retried only when it cannot have landed.
    expect([isRetryable(refused, false), isRetryable(reset, false)]).toEqual([true, false]);
  });

  it('still retries a reset', () => {
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(isRetryable(errorFromTransport(cause, { route: 'GET /v4/ip_rules' }), true)).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('describeBody', () => {
  it('reads strings, nested errors and lists', () => {
    expect(describeBody('Already exists')).toBe('Already exists');
    expect(describeBody({ clientid: { error: "can't be blank" } })).toBe("clientid: can't be blank");
    expect(describeBody([{ error: 'a' }, 'b'])).toBe('a; b');
  });
});
