import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/emulator/envelope.js';
import { conditionSetKey, normalizeConditions } from '../../../src/emulator/rules/conditions.js';

describe('normalizeConditions', () => {
  it('upper-cases header names, lower-cases iequal values, stringifies instance ids', () => {
    const out = normalizeConditions([
      { point: ['header', 'host'], type: 'iequal', value: 'EXAMPLE.com' },
      { point: ['header', 'x-y'], type: 'equal', value: 'KeepCase' },
      { point: ['instance'], type: 'equal', value: 42 },
      { point: ['path', '3'], type: 'absent', value: 'ignored' },
      { point: ['method'], type: 'equal', value: 'POST' },
    ]);
    expect(out).toEqual(expect.arrayContaining([
      { point: ['header', 'HOST'], type: 'iequal', value: 'example.com' },
      { point: ['header', 'X-Y'], type: 'equal', value: 'KeepCase' },
      { point: ['instance'], type: 'equal', value: '42' },
      { point: ['path', 3], type: 'absent', value: null },
      { point: ['method'], type: 'equal', value: 'POST' },
    ]));
    expect(out).toHaveLength(5);
  });

  it('orders by content, whatever the input order', () => {
    const a = [{ point: ['get', 'a'], type: 'equal', value: '1' }, { point: ['get', 'b'], type: 'equal', value: '2' }, { point: ['uri'], type: 'regex', value: '^/x' }];
    expect(normalizeConditions([...a].reverse())).toEqual(normalizeConditions(a));
  });

  it.each([
    [[{ point: ['path'], type: 'equal', value: 'x' }], /exactly one argument/],
    [[{ point: ['method', 'x'], type: 'equal', value: 'x' }], /no argument/],
    [[{ point: ['header', ''], type: 'equal', value: 'x' }], /needs a name/],
    [[{ point: [], type: 'equal', value: 'x' }], /non-empty/],
    [[{ point: ['uri'], type: 'regex', value: '(' }], /regular expression/],
    [[{ point: ['instance'], type: 'regex', value: '1' }], /instance takes type equal/],
    [['x'], /must be an object/],
  ])('refuses %j', (input, message) => {
    try {
      normalizeConditions(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(400);
      expect(JSON.stringify((error as HttpError).body)).toMatch(message);
    }
  });
});

describe('conditionSetKey', () => {
  it('is order-independent and per account', () => {
    const x = { point: ['get', 'a'], type: 'equal', value: '1' };
    const y = { point: ['uri'], type: 'absent', value: null };
    expect(conditionSetKey(1, [x, y])).toBe(conditionSetKey(1, [y, x]));
    expect(conditionSetKey(1, [x])).not.toBe(conditionSetKey(2, [x]));
  });
});
