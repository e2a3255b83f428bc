/**
 * Adds `value` to the list under `key`, in place. Copying the list on every
 * add (`map.set(k, [...(map.get(k) ?? []), v])`) is quadratic in a group's size.
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * One value, or a list once a second comes: most keys of an index hold one
 * value, and a list each cost 32 bytes (1.6 MB at 50k declarations). For
 * values that are never arrays themselves.
 */
export type OneOrMore<V> = V | V[];

/** What holds values by key: a Map, or an index keyed by something other than one value (ip-slots.ts). */
interface Holder<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** Adds `value` under `key`, a list made only for the second. */
export function addOneOrMore<K, V>(map: Holder<K, OneOrMore<V>>, key: K, value: V): void {
  const held = map.get(key);
  if (held === undefined) map.set(key, value);
  else if (Array.isArray(held)) held.push(value);
  else map.set(key, [held, value]);
}

/** Whether one of the values held passes `test`. */
export function someHeld<V>(held: OneOrMore<V> | undefined, test: (value: V) => boolean): boolean {
  if (held === undefined) return false;
  return Array.isArray(held) ? held.some(test) : test(held);
}
