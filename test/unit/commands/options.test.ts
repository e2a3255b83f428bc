import { describe, expect, it } from 'vitest';
import { accountId, parseDuration, wholeNumber } from '../../../src/commands/options.js';
import { UsageError } from '../../../src/errors.js';

describe('option parsers', () => {
  it('counts such as --concurrency take 1 or more, written in decimal digits', () => {
    const concurrency = wholeNumber('--concurrency', { min: 1 });
    expect(concurrency('8')).toBe(8);
    for (const bad of ['0', '-1', '1.5', 'x', '', '1e3', '0x10', ' 5', '5 ', '1.0', '+5']) {
      expect(() => concurrency(bad), bad).toThrow(UsageError);
    }
  });

  it('lags take 0 or more, up to their bound', () => {
    const lag = wholeNumber('--emulator-lag', { min: 0, max: 1000 });
    expect(lag('0')).toBe(0);
    expect(() => lag('-5')).toThrow(UsageError);
    expect(() => lag('1001')).toThrow('--emulator-lag takes a whole number from 0 to 1000, got "1001"');
  });

  it('a number past the largest integer a number holds exactly is refused, not read rounded', () => {
    const limit = wholeNumber('--impact-limit', { min: 0 });
    expect(limit('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => limit('9007199254740992')).toThrow('--impact-limit takes a whole number from 0 to 9007199254740991, got "9007199254740992"');
    expect(() => limit('99999999999999999999')).toThrow('--impact-limit takes a whole number from 0 to 9007199254740991, got "99999999999999999999"');
    expect(() => accountId('99999999999999999999')).toThrow('--client must be a positive integer account id, got "99999999999999999999"');
  });

  it('durations read ms, s, m, h and plain seconds', () => {
    expect(parseDuration('1500ms')).toBe(1500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('2')).toBe(2_000);
    expect(() => parseDuration('soon')).toThrow(/invalid duration "soon"/);
  });

  it('durations are bounded where they are read, with an error that names the bound', () => {
    // Past Node's timer limit (24.8 days) a timer fires at once, over and over.
    expect(() => parseDuration('30d', '--interval')).toThrow('--interval must be between 1s and 24d, got "30d"');
    expect(() => parseDuration('1ms', '--interval')).toThrow('--interval must be between 1s and 24d, got "1ms"');
    expect(parseDuration('24d', '--interval')).toBe(24 * 86_400_000);
    expect(() => parseDuration('30d', '--timeout')).toThrow('--timeout must be between 100ms and 24d (or 0 for no deadline), got "30d"');
    expect(parseDuration('0', '--timeout')).toBe(0);
    expect(parseDuration('0', '--settle-timeout')).toBe(0);
    expect(() => parseDuration('2d', '--settle-timeout')).toThrow(/--settle-timeout must be between 100ms and 1d/);
    expect(() => parseDuration('1y', '--since')).toThrow(/invalid duration/);
    expect(() => parseDuration('365d', '--since')).toThrow('--since must be between 1m and 183d, got "365d"');
    expect(() => parseDuration('0', '--interval')).toThrow(/--interval must be between/);
  });
});
