import { describe, expect, it } from 'vitest';
import { lastById } from '../../../src/live/classes/class.js';

describe('lastById', () => {
  it('keeps every record, in order, when no id repeats', () => {
    const records = [{ id: 5, v: 'a' }, { id: 2, v: 'b' }, { id: 9, v: 'c' }];
    const kept = lastById(records);
    expect(kept).toEqual(records);
    expect(kept).not.toBe(records);
  });

  it('keeps the later version of a record listed twice, where that version was listed', () => {
    const records = [{ id: 5, v: 'old' }, { id: 2, v: 'b' }, { id: 9, v: 'c' }, { id: 5, v: 'new' }];
    expect(lastById(records)).toEqual([{ id: 2, v: 'b' }, { id: 9, v: 'c' }, { id: 5, v: 'new' }]);
  });

  it('finds a repeat among ids beyond 32 bits and between far apart records', () => {
    const records = Array.from({ length: 1_000 }, (_, i) => ({ id: 2 ** 40 + i, v: 'x' }));
    records.push({ id: 2 ** 40, v: 'y' });
    const kept = lastById(records);
    expect(kept).toHaveLength(1_000);
    expect(kept.at(-1)).toEqual({ id: 2 ** 40, v: 'y' });
  });
});
