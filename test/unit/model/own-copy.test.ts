import { describe, expect, it } from 'vitest';
import { ownCopy } from '../../../src/model/own-copy.js';

describe('ownCopy', () => {
  it('gives the same text back, whatever it holds', () => {
    const parent = `prefix ${'x'.repeat(40)} "quoted" \\ back\tslash \u2028 ünïcödé 🙂 [managed-by:rampart fp:0123456789abcdef]`;
    for (let start = 0; start < parent.length; start += 7) {
      const part = parent.slice(start, start + 30);
      expect(ownCopy(part)).toBe(part);
    }
    expect(ownCopy('')).toBe('');
  });
});
