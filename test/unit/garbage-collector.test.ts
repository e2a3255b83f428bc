import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/garbage-collector.js';

describe('collectGarbage', () => {
  it('collects what nothing holds any more, without --expose-gc', () => {
    const used = () => process.memoryUsage().heapUsed;
    expect(collectGarbage()).toBe(true);
    const before = used();
    let garbage: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `value ${i}` }));
    expect(used() - before).toBeGreaterThan(10 * 2 ** 20);
    garbage = undefined;
    collectGarbage();
    expect(garbage).toBeUndefined();
    expect(used() - before).toBeLessThan(5 * 2 ** 20);
  });
});
