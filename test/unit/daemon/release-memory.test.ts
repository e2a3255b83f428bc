import { describe, expect, it } from 'vitest';
import { collectGarbage, shrinkYoungGeneration, youngGenerationBytes } from '../../../src/daemon/release-memory.js';

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

describe('shrinkYoungGeneration', () => {
  it('gives back the young generation a burst of survivors grew, once allocation has stopped for a while', async () => {
    // Survivors of scavenges grow the young generation; full collections leave it grown.
    let kept: unknown[] | undefined = Array.from({ length: 1_000_000 }, (_, i) => ({ i }));
    kept = undefined;
    collectGarbage();
    const grown = youngGenerationBytes();
    expect(kept).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const runs = shrinkYoungGeneration();
    expect(runs).toBeLessThanOrEqual(16);
    // Grown to several MB (V8 starts it at 1 MB or less); shrunk below that.
    if (grown > 4 * 2 ** 20) expect(youngGenerationBytes()).toBeLessThan(grown);
  });
});
