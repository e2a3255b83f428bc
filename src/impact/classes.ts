/** The impact's side of each object class, by the `kind` its changes carry (see plan/classes). */
import type { Change, ChangeOf } from '../model/change.js';
import { byClass } from '../plan/classes/index.js';
import type { ObjectClass } from '../model/object-class.js';

/** One handler per class: the compiler names a class without one. */
export type ByClass<R> = { readonly [K in ObjectClass]: (change: ChangeOf<K>) => R };

/** The handler of a change's class, called with it. */
export function dispatch<R>(handlers: ByClass<R>, change: Change): R {
  // Sound: the table is keyed by the kind each class's changes carry.
  return (handlers[change.kind] as (change: Change) => R)(change);
}

/** The changes of one class, in plan order. */
export function changesOf<K extends ObjectClass>(changes: readonly Change[], kind: K): ChangeOf<K>[] {
  return (byClass(changes).get(kind) ?? []) as ChangeOf<K>[];
}
