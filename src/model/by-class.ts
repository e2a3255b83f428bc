/**
 * Behaviour keyed by a change's object class: one cell per class of the
 * registry (object-class.ts), so a new class fails to compile until each such
 * table has its cell. The counterpart of by-action.ts.
 */
import type { Change, ChangeOf } from './change.js';
import type { ObjectClass } from './object-class.js';

/** One handler per class: the compiler names a class without one. */
export type ByClass<R> = { readonly [K in ObjectClass]: (change: ChangeOf<K>) => R };

/** The handler of the change's class, called with it. */
export function onClass<R>(change: Change, handlers: ByClass<R>): R {
  // Sound: the table is keyed by the kind each class's changes carry.
  return (handlers[change.kind] as (change: Change) => R)(change);
}
