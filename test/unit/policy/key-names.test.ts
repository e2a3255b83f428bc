import { describe, expect, it } from 'vitest';
import { KeyNames } from '../../../src/policy/spots-tape.js';

describe('the table of key names the positions share', () => {
  it('numbers each name once, and takes no new one past its bound (the clean path then declines the text)', () => {
    const names = new KeyNames(2);
    expect([names.numberOf('name'), names.numberOf('type'), names.numberOf('name')]).toEqual([0, 1, 0]);
    expect(names.numberOf('point')).toBeUndefined();
    expect(names.numberOf('type')).toBe(1);
    expect(names.names).toEqual(['name', 'type']);
  });
});
