/**
 * A declaration's source may be a DeferredSource (src/policy/source-map.ts),
 * whose line and column are getters on its class: the tests compare sources by
 * their plain form, so an expected `{ file, line, col, name }` and a loaded
 * source are equal when those four are, as they were when every source was a
 * plain object. Known by its class name: a test may load the module from
 * dist/ as well as from src/.
 */
import { expect } from 'vitest';

interface Plain {
  toJSON(): unknown;
}

function isDeferredSource(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && value.constructor?.name === 'DeferredSource';
}

expect.addEqualityTesters([
  function sourcesByValue(this: { equals(a: unknown, b: unknown, testers?: unknown[]): boolean }, a: unknown, b: unknown, customTesters: unknown[]) {
    if (!isDeferredSource(a) && !isDeferredSource(b)) return undefined;
    const plain = (value: unknown) => (isDeferredSource(value) ? value.toJSON() : value);
    return this.equals(plain(a), plain(b), customTesters);
  },
]);
