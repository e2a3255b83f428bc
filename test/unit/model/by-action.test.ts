/** The tables and groupings every layer uses to act by a change's action, rather than testing it by hand. */
import { describe, expect, it } from 'vitest';
import { groupByAction, mapAction, onAction, onActionGroups, type ByAction } from '../../../src/model/by-action.js';

type Toy =
  | { readonly action: 'create'; readonly value: string }
  | { readonly action: 'delete'; readonly id: number }
  | { readonly action: 'adopt'; readonly id: number; readonly value: string };

const changes: Toy[] = [
  { action: 'delete', id: 1 },
  { action: 'create', value: 'a' },
  { action: 'adopt', id: 2, value: 'b' },
  { action: 'create', value: 'c' },
];

describe('by action', () => {
  it('onAction calls the cell of the change\'s action, typed as that action\'s change', () => {
    const describe: ByAction<Toy, string> = { create: (c) => `+${c.value}`, delete: (c) => `-#${c.id}`, adopt: (c) => `@#${c.id}=${c.value}` };
    expect(changes.map((change) => onAction(change, describe))).toEqual(['-#1', '+a', '@#2=b', '+c']);
  });

  it('groupByAction keeps each action\'s changes in their order, and an action with none is an empty list', () => {
    const of = groupByAction(changes);
    expect(of('create').map((c) => c.value)).toEqual(['a', 'c']);
    expect(of('delete').map((c) => c.id)).toEqual([1]);
    expect(groupByAction<Toy>([])('adopt')).toEqual([]);
  });

  it('onActionGroups calls every cell once, in the table\'s order, even for an action with no change', () => {
    const seen = onActionGroups(changes.slice(0, 2), { adopt: (list) => `adopt ${list.length}`, create: (list) => `create ${list.length}`, delete: (list) => `delete ${list.length}` });
    expect(seen).toEqual(['adopt 0', 'create 1', 'delete 1']);
  });

  it('mapAction maps only its action\'s changes, drops those it answers undefined for, and keeps the rest in place', () => {
    const mapped = mapAction(changes, 'create', (c) => (c.value === 'a' ? undefined : { ...c, value: c.value.toUpperCase() }));
    expect(mapped).toEqual([{ action: 'delete', id: 1 }, { action: 'adopt', id: 2, value: 'b' }, { action: 'create', value: 'C' }]);
  });
});
