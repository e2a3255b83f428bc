/** The impact's side of each object class, by the `kind` its changes carry (see plan/classes). */
import type { Change } from '../model/change.js';
import { byClass, type ObjectClassName } from '../plan/classes/index.js';

export type ChangeOf<K extends ObjectClassName> = Extract<Change, { kind: K }>;

/** One handler per class: the compiler names a class without one. */
export type ByClass<R> = { readonly [K in ObjectClassName]: (change: ChangeOf<K>) => R };

/** The handler of a change's class, called with it. */
export function dispatch<R>(handlers: ByClass<R>, change: Change): R {
  // Sound: the table is keyed by the kind each class's changes carry.
  return (handlers[change.kind] as (change: Change) => R)(change);
}

/** The changes of one class, in plan order. */
export function changesOf<K extends ObjectClassName>(changes: readonly Change[], kind: K): ChangeOf<K>[] {
  return (byClass(changes).get(kind) ?? []) as ChangeOf<K>[];
}
