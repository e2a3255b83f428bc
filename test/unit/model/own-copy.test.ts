import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/garbage-collector.js';
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

  // 16: a fingerprint, copied as two halves; 40: copied whole.
  it.each([16, 40])('does not keep the text a part of %i characters was cut from alive, where the part itself would', (length) => {
    const held = (keep: (part: string) => string): number => {
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      const kept = (() => {
        const parent = Array.from({ length: 400_000 }, (_, i) => `value ${i}`).join(',');
        return keep(parent.slice(1_000, 1_000 + length));
      })();
      collectGarbage();
      expect(kept).toHaveLength(length);
      return process.memoryUsage().heapUsed - before;
    };
    // The parent is about 5 MB.
    expect(held((part) => part)).toBeGreaterThan(4 * 2 ** 20);
    expect(held(ownCopy)).toBeLessThan(2 ** 20);
  });
});
