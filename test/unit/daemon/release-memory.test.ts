import { describe, expect, it } from 'vitest';
import { shrinkYoungGeneration, youngGenerationBytes } from '../../../src/daemon/release-memory.js';
import { collectGarbage } from '../../../src/garbage-collector.js';

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
