/**
 * The account as it would be after a plan, for one class: the live objects
 * less the ids the changes take away, with the objects they put there. Each
 * action's part is a cell, so a new action fails to compile here until it
 * says what it leaves.
 */
import { onAction, type ByAction } from '../model/by-action.js';
import type { IpChange } from '../model/ip-change.js';
import type { RuleChange } from '../model/rule-change.js';
import type { IpEntry } from '../model/ip.js';
import type { Rule } from '../model/rule.js';

/** What one change leaves: the live ids it takes away, the objects it puts there. */
interface Leaves<O> {
  readonly gone: readonly number[];
  readonly put: readonly O[];
}

const RULES_LEFT: ByAction<RuleChange, Leaves<Rule>> = {
  create: (change) => ({ gone: change.replaces ?? [], put: [change.rule] }),
  update: (change) => ({ gone: [change.live.id], put: [change.rule] }),
  adopt: (change) => ({ gone: [change.live.id], put: [change.rule] }),
  delete: (change) => ({ gone: [change.rule.id], put: [] }),
};

/** A forced create or an adoption moves values between objects: the objects they leave stay, with the values' other copies. */
const ENTRIES_LEFT: ByAction<IpChange, Leaves<IpEntry>> = {
  create: (change) => ({ gone: [], put: change.entries }),
  adopt: (change) => ({ gone: [], put: change.entries }),
  delete: (change) => ({ gone: change.objects.map((object) => object.id), put: [] }),
};

function after<O, C extends { readonly action: string }>(
  live: readonly (O & { readonly id: number })[], changes: readonly C[], table: ByAction<C, Leaves<O>>,
): O[] {
  const gone = new Set<number>();
  const put: O[] = [];
  for (const change of changes) {
    const leaves = onAction(change, table);
    for (const id of leaves.gone) gone.add(id);
    put.push(...leaves.put);
  }
  return [...live.filter((object) => !gone.has(object.id)), ...put];
}

export function rulesAfter(live: readonly (Rule & { readonly id: number })[], changes: readonly RuleChange[]): Rule[] {
  return after(live, changes, RULES_LEFT);
}

export function entriesAfter(live: readonly (IpEntry & { readonly id: number })[], changes: readonly IpChange[]): IpEntry[] {
  return after(live, changes, ENTRIES_LEFT);
}
