import { describe, expect, it } from 'vitest';
import { describeBody, errorFromStatus, parseRetryAfter } from '../../../src/api/errors-from-response.js';

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

  it('says plainly that the token is the problem on 403', () => {
    const error = errorFromStatus(403, { body: { permissions: { error: 'invalid', reason: 'check access failed' } } });
    expect(error.message).toMatch(/token is wrong or lacks rights/);
    expect(error.message).toContain('check access failed');
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
