/**
 * How many objects each listing of a read is expected to hold, so its pages
 * can be requested at once (paging.ts). A guess too low costs time (the pages
 * past it are read one after another), a guess too high costs calls (pages
 * requested past the end), so the desired state gives a count the listing of a
 * converged account cannot be below, and the daemon adds what it listed last
 * cycle (foreign objects, values still to delete).
 */
import { objectsOf, registeredClasses, type ObjectClass, type ObjectClassModels } from '../model/object-class.js';
import type { DesiredState } from '../model/state.js';
import { hasListingSizes } from './classes/class.js';
import { liveClass } from './classes/index.js';
import { listingKey, type ListingKey, type ListingSizes } from './listing-key.js';

/**
 * The fewest objects the listings hold once the account matches the desired
 * state, each class's listings counted by the class (its live side's
 * `listedAtLeast`): one rule object per rule, say, or one IP object per
 * request.
 */
export function desiredListingSizes(desired: DesiredState): Map<ListingKey, number> {
  const sizes = new Map<ListingKey, number>();
  for (const kind of registeredClasses()) {
    const reader = liveClass(kind);
    for (const client of desired.clients) for (const listing of reader.listingNames) sizes.set(listingKey(client, listing), 0);
    for (const [key, count] of countedBy(kind, objectsOf<ObjectClass, 'desired'>(desired, kind))) sizes.set(key, (sizes.get(key) ?? 0) + count);
  }
  return sizes;
}

/** What a class's declarations promise its listings hold; nothing for a class that does not say. */
function countedBy<K extends ObjectClass>(kind: K, objects: readonly ObjectClassModels[K]['desired'][]): ReadonlyMap<ListingKey, number> {
  const reader = liveClass(kind);
  return hasListingSizes(reader) ? reader.listedAtLeast(objects) : new Map();
}

/** Per listing, the larger of the desired state's count and what the last read listed (the daemon's memory of it). */
export function expectedListingSizes(desired: DesiredState, lastListed: ListingSizes = new Map()): ListingSizes {
  const sizes = desiredListingSizes(desired);
  for (const [key, count] of sizes) sizes.set(key, Math.max(count, lastListed.get(key) ?? 0));
  return sizes;
}

/** What the listings held, the last read's over the earlier's: a listing no longer read keeps its last size. */
export function rememberListed(earlier: ListingSizes, read: ListingSizes): ListingSizes {
  return new Map([...earlier, ...read]);
}
