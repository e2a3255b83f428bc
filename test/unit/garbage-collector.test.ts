import { describe, expect, it } from 'vitest';
import { collectGarbage, collectYoungGarbage, releaseGarbage } from '../../src/garbage-collector.js';

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

describe('releaseGarbage', () => {
  // Node.js 22 and later take the memory-reducing collection, Node.js 20 two plain ones: either collects it all.
  it(`collects what nothing holds any more, on this Node.js (V8 ${process.versions.v8})`, () => {
    const used = () => process.memoryUsage().heapUsed;
    collectGarbage();
    const before = used();
    let garbage: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `value ${i}` }));
    expect(used() - before).toBeGreaterThan(10 * 2 ** 20);
    garbage = undefined;
    expect(releaseGarbage()).toBe(true);
    expect(garbage).toBeUndefined();
    expect(used() - before).toBeLessThan(5 * 2 ** 20);
  });
});

describe('collectYoungGarbage', () => {
  it('collects the young generation\'s garbage, without --expose-gc', () => {
    const used = () => process.memoryUsage().heapUsed;
    collectGarbage();
    const before = used();
    let garbage: unknown[] | undefined = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    expect(used()).toBeGreaterThan(before);
    garbage = undefined;
    expect(collectYoungGarbage()).toBe(true);
    expect(garbage).toBeUndefined();
    expect(used() - before).toBeLessThan(256 * 1024);
  });
});
