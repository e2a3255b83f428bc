/**
 * A declared IP value is a DeclaredIpValue
 * (src/policy/classes/declared-ip-value.ts) and a listed one a ListedIpValue
 * (src/live/ip-backends/listed-ip-value.ts), whose members other than their
 * own are getters on their class, and a `path-chain` warning a
 * PathChainWarning (src/policy/classes/path-chain.ts), whose message is: the
 * tests compare them by their plain form, so an expected `{ client, list,
 * ..., source }` and a loaded value are equal when those are, as they were
 * when each was a plain object. Known by their class names: a test may load
 * the modules from dist/ as well as from src/.
 */
import { expect } from 'vitest';

interface Plain {
  toJSON(): unknown;
}

const GETTER_CLASSES = new Set(['DeclaredIpValue', 'ListedIpValue', 'PathChainWarning']);

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
