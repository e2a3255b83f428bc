import { describe, expect, it } from 'vitest';
import { SecondIds } from '../../../src/hits/second-ids.js';

describe('the ids of one second', () => {
  it('tells a repeat by both parts, the first id and later ones alike, until cleared', () => {
    const ids = new SecondIds();
    expect(ids.add(['hits-1', 'h1'])).toBe(true);
    expect(ids.add(['hits-1', 'h2'])).toBe(true);
    expect(ids.add(['hits-2', 'h1'])).toBe(true);
    expect(ids.add(['hits-1', 'h1'])).toBe(false);
    expect(ids.add(['hits-1', 'h2'])).toBe(false);
    expect(ids.has(['hits-2', 'h1'])).toBe(true);
    expect(ids.has(['hits-2', 'h2'])).toBe(false);
    // A number and its text are one id, as the listing's two spellings of it.
    expect(ids.has(['hits-1', 'h1'])).toBe(true);
    ids.add([3, 4]);
    expect(ids.has(['3', '4'])).toBe(true);
    ids.clear();
    expect(ids.has(['hits-1', 'h1'])).toBe(false);
    expect(ids.add(['hits-1', 'h1'])).toBe(true);
  });
});
