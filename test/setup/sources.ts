/**
 * A declared IP value is a DeclaredIpValue
 * (src/policy/classes/declared-ip-value.ts), whose members other than its
 * value are getters on its class: the tests compare it by its plain form, so
 * an expected `{ client, list, ..., source }` and a loaded value are equal
 * when those are, as they were when each value was a plain object. Known by
 * its class name: a test may load the module from dist/ as well as from src/.
 */
import { expect } from 'vitest';

interface Plain {
  toJSON(): unknown;
}

const GETTER_CLASSES = new Set(['DeclaredIpValue']);

function hasGetterMembers(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && GETTER_CLASSES.has(value.constructor?.name ?? '');
}

expect.addEqualityTesters([
  function declaredValuesByPlainForm(this: { equals(a: unknown, b: unknown, testers?: unknown[]): boolean }, a: unknown, b: unknown, customTesters: unknown[]) {
    if (!hasGetterMembers(a) && !hasGetterMembers(b)) return undefined;
    const plain = (value: unknown) => (hasGetterMembers(value) ? value.toJSON() : value);
    return this.equals(plain(a), plain(b), customTesters);
  },
]);
