/**
 * A declaration's source may be a DeferredSource (src/policy/source-map.ts),
 * whose line and column are getters on its class, and a declared IP value a
 * DeclaredIpValue (src/policy/classes/declared-ip-value.ts), whose shared
 * members are: the tests compare both by their plain form, so an expected
 * `{ file, line, col, name }` and a loaded source are equal when those four
 * are, as they were when each was a plain object. Known by their class names:
 * a test may load the modules from dist/ as well as from src/.
 */
import { expect } from 'vitest';

interface Plain {
  toJSON(): unknown;
}

const GETTER_CLASSES = new Set(['DeferredSource', 'DeclaredIpValue']);

function isDeferredSource(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && GETTER_CLASSES.has(value.constructor?.name ?? '');
}

expect.addEqualityTesters([
  function sourcesByValue(this: { equals(a: unknown, b: unknown, testers?: unknown[]): boolean }, a: unknown, b: unknown, customTesters: unknown[]) {
    if (!isDeferredSource(a) && !isDeferredSource(b)) return undefined;
    const plain = (value: unknown) => (isDeferredSource(value) ? value.toJSON() : value);
    return this.equals(plain(a), plain(b), customTesters);
  },
]);
