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
});
