/** A plan's changes counted in the counting vocabulary (counts.ts), each by its class. */
import type { Change } from '../model/change.js';
import { planClassOf } from './classes/index.js';
import type { ObjectCounts } from './counts.js';

/**
 * The objects one change touches. A create that replaces owned objects is a
 * `replace` (its old copies are not counted again in `delete`); an IP delete
 * counts the values the object held, less those an earlier create moved out.
 */
export function changeCounts(change: Change): ObjectCounts {
  return planClassOf(change).counts(change);
}

/** The sum over changes, every action of `into` kept (0 where none). */
export function addCounts<T extends ObjectCounts>(into: T, changes: readonly Change[]): T {
  const out: Record<string, number> = { ...into } as Record<string, number>;
  for (const change of changes) {
    // A plain object's own keys, without the array of entries `Object.entries` makes for each change.
    const counts = changeCounts(change) as Record<string, number>;
    for (const action in counts) out[action] = (out[action] ?? 0) + (counts[action] as number);
  }
  return out as T;
}
