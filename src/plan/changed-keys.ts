/**
 * The nested keys an update changes (`threshold.count`), for the plan JSON: a
 * nested field changes as a whole in the API, but a reviewer (or a tool
 * reading the plan) wants the key that moved.
 */
import { fieldValues, kindOf, type Rule } from '../model/rule.js';

/** `{ keys }` below the changed `fields` of `want`; nothing when every changed field is flat (the plan says it by `fields`). */
export function nestedKeys(want: Rule, live: Rule, fields: readonly string[]): { keys?: string[] } {
  const after = fieldValues(want);
  const before = fieldValues(live);
  const keys: string[] = [];
  let nested = false;
  for (const field of kindOf(want).fields) {
    if (!fields.includes(field.name)) continue;
    const lines = (value: typeof after[string]) => new Map(value === undefined ? [] : field.show(value as never));
    const [a, b] = [lines(after[field.name]), lines(before[field.name])];
    for (const path of new Set([...a.keys(), ...b.keys()])) {
      if (path !== '') nested = true;
      if (a.get(path) !== b.get(path)) keys.push(`${field.name}${path}`);
    }
  }
  return nested ? { keys } : {};
}
