import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keySet, sameKeys } from '../../../src/audit/key-set.js';

const hex = (text: string, digits: number): string => createHash('sha256').update(text).digest('hex').slice(0, digits);

describe('keySet', () => {
  it.each([16, 20, 8, 3])('holds %i-digit hex keys: membership, size and the keys back in order', (digits) => {
    const keys = Array.from({ length: 500 }, (_, i) => hex(`key ${i}`, digits));
    const set = keySet([...keys, ...keys.slice(0, 10)]);
    const distinct = [...new Set(keys)].sort();
    expect(set.size).toBe(distinct.length);
    expect([...set]).toEqual(distinct);
    for (const key of keys) expect(set.has(key)).toBe(true);
    for (let i = 500; i < 700; i++) {
      const other = hex(`key ${i}`, digits);
      expect(set.has(other)).toBe(distinct.includes(other));
    }
  });

  it('holds keys with leading zeros and the extremes of a word', () => {
    const keys = ['00000000000000000001', 'ffffffffffffffffffff', '0000000100000000ffff', '80000000000000000000'];
    const set = keySet(keys);
    expect([...set]).toEqual([...keys].sort());
    for (const key of keys) expect(set.has(key)).toBe(true);
    expect(set.has('00000000000000000002')).toBe(false);
  });

  it('never holds a key of another length, or one that is not lowercase hex', () => {
    const set = keySet(['0123456789abcdef']);
    expect(set.has('0123456789ABCDEF')).toBe(false);
    expect(set.has('0123456789abcde')).toBe(false);
    expect(set.has('0123456789abcdef0')).toBe(false);
    expect(set.has('0123456789abcdeg')).toBe(false);
    expect(set.has('')).toBe(false);
  });

  it('keeps keys that are not all hex of one length as they are (a memory file edited by hand)', () => {
    const keys = ['0123456789abcdef', 'not hex at all', 'abc'];
    const set = keySet(keys);
    expect(set.size).toBe(3);
    for (const key of keys) expect(set.has(key)).toBe(true);
    expect(set.has('abd')).toBe(false);
    expect(keySet([]).size).toBe(0);
    expect(keySet([]).has('')).toBe(false);
  });
});

describe('sameKeys', () => {
  const a = Array.from({ length: 50 }, (_, i) => hex(`a ${i}`, 20));
  it('compares packed and plain sets alike', () => {
    expect(sameKeys(keySet(a), keySet([...a].reverse()))).toBe(true);
    expect(sameKeys(keySet(a), keySet(a.slice(1)))).toBe(false);
    expect(sameKeys(keySet(a), keySet([...a.slice(1), hex('other', 20)]))).toBe(false);
    expect(sameKeys(keySet(a), new Set(a))).toBe(true);
    expect(sameKeys(new Set(a), keySet(a))).toBe(true);
    expect(sameKeys(keySet(a.map((k) => k.slice(0, 16))), keySet(a))).toBe(false);
  });
});
