/**
 * Behaviour keyed by a change's action: one cell per action, in a table whose
 * type lists every action of the union, so a new action fails to compile
 * until each table has its cell (no `else` standing for "the other actions").
 */

/** One handler per action of the change union `C`. */
export type ByAction<C extends { readonly action: string }, R> = {
  readonly [A in C['action']]: (change: Extract<C, { readonly action: A }>) => R;
};

/** The handler of the change's action, called with it. */
export function onAction<C extends { readonly action: string }, R>(change: C, handlers: ByAction<C, R>): R {
  // Sound: the table is keyed by the action each handler's changes carry.
  return (handlers[change.action as C['action']] as (change: C) => R)(change);
}
