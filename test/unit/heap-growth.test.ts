import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/garbage-collector.js';
import { HeapGrowth } from '../../src/heap-growth.js';

const inUse = (): number => getHeapStatistics().used_heap_size;
const chunk = (): unknown[] => Array.from({ length: 100_000 }, (_, i) => ({ i, text: `value ${i}` }));

describe('HeapGrowth', () => {
  it('collects once the heap in use grew by half since the last collection (16 MB at least), and not before', () => {
    collectGarbage();
    const heap = new HeapGrowth();
    const base = inUse();
    expect(heap.check()).toBe(false);
    // Held while the checks run: the heap grows chunk by chunk until a check collects.
    const held: unknown[][] = [];
    let collected = false;
    let grownAt = 0;
    while (!collected && held.length < 40) {
      held.push(chunk());
      grownAt = inUse() - base;
      collected = heap.check();
    }
    expect(collected).toBe(true);
    expect(grownAt).toBeGreaterThanOrEqual(Math.max(16 * 2 ** 20, base * 0.5));
    // The collection is the new base: nothing grew since.
    expect(heap.check()).toBe(false);
    expect(held.length).toBeGreaterThan(0);
  });
});
