import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { nonNegativeInt, parseDuration, positiveInt } from '../../../src/commands/options.js';

describe('option parsers', () => {
  it('counts such as --concurrency take 1 or more', () => {
    expect(positiveInt('8')).toBe(8);
    for (const bad of ['0', '-1', '1.5', 'x', '']) expect(() => positiveInt(bad)).toThrow(InvalidArgumentError);
  });

  it('lags take 0 or more', () => {
    expect(nonNegativeInt('0')).toBe(0);
    expect(() => nonNegativeInt('-5')).toThrow(InvalidArgumentError);
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
