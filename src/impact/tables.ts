/** The small tables the request index is built of: groupings as one array, and maps of maps. */

/** Members grouped by a key: group g's members are `members[start[g]]` up to `members[start[g + 1]]`, ascending. */
export interface Grouping {
  readonly start: Int32Array;
  readonly members: Int32Array;
}

/** The first `count` of `keys` grouped by key (a counting sort): each group's members ascending. */
export function group(keys: Int32Array, count: number, groups: number): Grouping {
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < count; i++) {
    const key = (keys[i] as number) + 1;
    start[key] = (start[key] as number) + 1;
  }
  for (let g = 0; g < groups; g++) start[g + 1] = (start[g + 1] as number) + (start[g] as number);
  const next = start.slice(0, groups);
  const members = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const key = keys[i] as number;
    const at = next[key] as number;
    members[at] = i;
    next[key] = at + 1;
  }
  return { start, members };
}

export function members(grouping: Grouping, g: number): Int32Array {
  return grouping.members.subarray(grouping.start[g], grouping.start[g + 1]);
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The inner table of `key`, made when first asked for. */
export function branch<K, K2, V>(map: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = map.get(key);
  if (!inner) map.set(key, inner = new Map());
  return inner;
}
