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

/** The members of `C` with action `A`: its variant in a union, `C` itself where one type holds every action. */
type WithAction<C extends { readonly action: string }, A> = [Extract<C, { readonly action: A }>] extends [never] ? C : Extract<C, { readonly action: A }>;

/** The changes of one action, typed as that action's. */
export type OfAction<C extends { readonly action: string }> = <A extends C['action']>(action: A) => WithAction<C, A>[];

/** Changes grouped once by action, kept in their order: `of('delete')` is every delete, an empty list when none. */
export function groupByAction<C extends { readonly action: string }>(changes: readonly C[]): OfAction<C> {
  const groups = new Map<string, C[]>();
  for (const change of changes) {
    const group = groups.get(change.action);
    if (group) group.push(change);
    else groups.set(change.action, [change]);
  }
  // Sound: a group holds only the changes whose action is its key.
  return (action) => (groups.get(action) ?? []) as never;
}

/** One handler per action, each given all the changes of its action at once. */
export type ByActionGroup<C extends { readonly action: string }, R> = {
  readonly [A in C['action']]: (changes: Extract<C, { readonly action: A }>[]) => R;
};

/** Each handler of the table, in the table's order, called with its action's changes (an empty list when none). */
export function onActionGroups<C extends { readonly action: string }, R>(changes: readonly C[], handlers: ByActionGroup<C, R>): R[] {
  const of = groupByAction(changes);
  // Sound: each handler is called with the changes of its own action.
  return (Object.keys(handlers) as C['action'][]).map((action) => (handlers[action] as (changes: C[]) => R)(of(action)));
}

/**
 * The changes with those of one action passed through `map` (undefined drops
 * one), the others kept as they are, all in their order.
 */
export function mapAction<C extends { readonly action: string }, A extends C['action']>(
  changes: readonly C[], action: A, map: (change: WithAction<C, A>) => C | undefined,
): C[] {
  const out: C[] = [];
  for (const change of changes) {
    // Sound: only a change of `action` reaches `map`.
    const kept = change.action === action ? map(change as WithAction<C, A>) : change;
    if (kept !== undefined) out.push(kept);
  }
  return out;
}
