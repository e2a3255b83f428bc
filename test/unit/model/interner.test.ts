import { describe, expect, it } from 'vitest';
import { Interner } from '../../../src/model/interner.js';

describe('Interner', () => {
  it('shares points with the same elements, telling an index from its digits', () => {
    const intern = new Interner();
    const first = intern.point(['path', 0]);
    expect(intern.point(['path', 0])).toBe(first);
    expect(intern.point(['path', '0'])).not.toBe(first);
    expect(intern.point(['path'])).not.toBe(first);
    expect(intern.point(['path', 0, 'x'])).not.toBe(first);
    expect(intern.point(['path'])).toBe(intern.point(['path']));
  });

  it('shares lists of the same points in the same order, with their points shared', () => {
    const intern = new Interner();
    const list = intern.pointList([['header', 'HOST'], ['path', 0]]);
    expect(intern.pointList([['header', 'HOST'], ['path', 0]])).toBe(list);
    expect(list[0]).toBe(intern.point(['header', 'HOST']));
    expect(intern.pointList([['path', 0], ['header', 'HOST']])).not.toBe(list);
    expect(intern.pointList([['header', 'HOST']])).not.toBe(list);
    expect(intern.pointList([])).toBe(intern.pointList([]));
    expect(intern.pointList([])).toEqual([]);
  });

  it('shares conditions with the same point, type and value, with their point shared', () => {
    const intern = new Interner();
    const point = intern.point(['header', 'HOST']);
    const a = intern.condition({ point: ['header', 'HOST'], type: 'iequal', value: 'example.com' });
    expect(a.point).toBe(point);
    expect(intern.condition({ point: ['header', 'HOST'], type: 'iequal', value: 'example.com' })).toBe(a);
    expect(intern.condition({ point: ['header', 'HOST'], type: 'equal', value: 'example.com' })).not.toBe(a);
    expect(intern.condition({ point: ['header', 'HOST'], type: 'iequal', value: 'other' })).not.toBe(a);
    const absent = intern.condition({ point: ['header', 'HOST'], type: 'absent', value: null });
    expect(intern.condition({ point: ['header', 'HOST'], type: 'absent', value: null })).toBe(absent);
  });

  it('shares a record with one of the last few kept in its group whose members are the same values', () => {
    const intern = new Interner();
    const block = intern.recent('mode', { mode: 'block', reason: undefined });
    intern.recent('mode', { mode: 'monitoring', reason: undefined });
    expect(intern.recent('mode', { mode: 'block', reason: undefined })).toBe(block);
    expect(intern.recent('mode', { mode: 'block' })).not.toBe(block);
    expect(intern.recent('mode', { mode: 'block', reason: undefined, extra: 1 })).not.toBe(block);
    expect(intern.recent('other', { mode: 'block', reason: undefined })).not.toBe(block);
    expect(intern.recent('mode', { pools: [0] })).not.toBe(intern.recent('mode', { pools: [0] }));
  });

  it('shares one-application pools with the lists of the same numbers', () => {
    const intern = new Interner();
    expect(intern.pool(7)).toEqual([7]);
    expect(intern.pool(7)).toBe(intern.pool(7));
    expect(intern.numbers([7])).toBe(intern.pool(7));
  });
});
