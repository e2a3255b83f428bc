/**
 * Adds `value` to the list under `key`, in place. Copying the list on every
 * add (`map.set(k, [...(map.get(k) ?? []), v])`) is quadratic in a group's size.
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
