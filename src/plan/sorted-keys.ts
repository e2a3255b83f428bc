/**
 * An object's keys in sorted order (`Object.keys(o).sort()`), the order
 * Hash128 hashes members in. Plans and states hold a few shapes of object
 * many thousand times over, each with its keys in the order it was built:
 * the sorted order of a key list is remembered and found again by comparing
 * the lists (property names are interned strings, so each comparison is one
 * pointer check), which costs far less than sorting them again.
 */

interface Remembered {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
}

/** Key lists remembered per first key, and in all: enough for every shape of a plan, bounded against objects keyed by data. */
const PER_FIRST_KEY = 8;
const IN_ALL = 512;

const remembered = new Map<string, Remembered[]>();
let count = 0;

export function sortedKeys(keys: string[]): readonly string[] {
  const first = keys[0];
  if (first === undefined) return keys;
  const known = remembered.get(first);
  if (known !== undefined) {
    for (let i = 0; i < known.length; i++) {
      const entry = known[i] as Remembered;
      if (sameKeys(entry.keys, keys)) return entry.sorted;
    }
  }
  const sorted = isSorted(keys) ? keys : [...keys].sort();
  if (count < IN_ALL && (known?.length ?? 0) < PER_FIRST_KEY) {
    count++;
    if (known === undefined) remembered.set(first, [{ keys, sorted }]);
    else known.push({ keys, sorted });
  }
  return sorted;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}
