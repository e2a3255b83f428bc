import { describe, expect, it } from 'vitest';
import { DemoData } from '../../../src/emulator/demo/data.js';
import { attackFilter, inRanges } from '../../../src/emulator/demo/filters.js';
import { seededRandom } from '../../../src/emulator/demo/prng.js';

const NOW = 1_800_000_000;

describe('demo data', () => {
  it('the PRNG is seeded and deterministic', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('is the same for the same account and day, different across accounts', () => {
    expect(new DemoData().get(1, NOW)).toEqual(new DemoData().get(1, NOW + 60));
    expect(new DemoData().get(1, NOW)).not.toEqual(new DemoData().get(2, NOW));
  });

  it('incidents point at vulnerabilities of the account', () => {
    const demo = new DemoData().get(5, NOW);
    const vulnIds = new Set(demo.vulns.map((v) => v.id));
    const incidents = demo.attacks.filter((a) => a.vulnid !== null);
    expect(incidents.length).toBeGreaterThan(0);
    expect(incidents.every((a) => vulnIds.has(a.vulnid as number))).toBe(true);
    expect(demo.attacks.some((a) => a.state === 'falsepositive' && a.vulnid === null)).toBe(true);
  });

  it('seeds exact sizes on request', () => {
    const demo = new DemoData().seed(5, { attacks: 3, vulns: 0 }, NOW);
    expect(demo.attacks).toHaveLength(3);
    expect(demo.attacks.every((a) => a.vulnid === null)).toBe(true);
  });
});

describe('filters', () => {
  it('time ranges with open ends overlap [first, last]', () => {
    expect(inRanges([[10, null]], 5, 9)).toBe(false);
    expect(inRanges([[10, null]], 5, 10)).toBe(true);
    expect(inRanges([[null, 4]], 5, 9)).toBe(false);
    expect(inRanges([[1, 2], [8, 8]], 5, 9)).toBe(true);
    expect(inRanges(undefined, 5, 9)).toBe(true);
  });

  it('refuses vulnid filters other than null', () => {
    expect(() => attackFilter({ '!vulnid': 3 })).toThrow();
  });
});
