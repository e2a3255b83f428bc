/**
 * The diff of a class no cross-class pass reads (recognition and adoption
 * read the rules and the IP entries together: diff.ts). A declared object and
 * a live one of the same client are the same object when their keys are
 * equal; the class says what a key is, whether the two are the same, whether
 * a live object is ours, and what each change is. The rules are the ones the
 * built-in classes keep:
 * - an owned live object of a declared key is kept, updated where it differs;
 *   of several, the lowest id stays (a same one first) and the others go as
 *   duplicates, so a declaration never holds two objects;
 * - a live object not ours (unmanaged, or another owner's) is never written:
 *   the same as a declaration, it satisfies it (left as it is); different, it
 *   blocks it (a conflict, and the plan is not applied);
 * - an owned live object no declaration keys is deleted;
 * - a key declared twice is diffed once, from its first declaration (a
 *   class's policy side reports the second).
 */
import type { DeleteReason } from '../model/delete-reason.js';
import type { ObjectClass } from '../model/object-class.js';
import type { Source } from '../model/source.js';
import type { Conflict, UnmanagedMatch } from './adoption.js';

export interface KeyedDiff<D, L, M> {
  /** What makes a declaration and a live object one object, within a client. */
  desiredKey(object: D): string;
  liveKey(object: L): string;
  desiredSource(object: D): Source;
  client(object: D | L): number;
  id(object: L): number;
  /** Whether the live object carries `owner`'s mark. */
  owned(object: L, owner: string): boolean;
  /** Whether the live object already is what the declaration says. */
  same(desired: D, live: L): boolean;
  create(desired: D): M;
  update(desired: D, live: L): M;
  delete(live: L, reason: DeleteReason): M;
}

export interface KeyedDiffResult<M> {
  readonly changes: readonly M[];
  readonly unchanged: number;
  readonly owned: number;
  readonly unmanaged: readonly UnmanagedMatch[];
  readonly conflicts: readonly Conflict[];
}

/** Desired versus live objects of one class, of the clients reconciled. */
export function diffKeyed<D, L, M>(kind: ObjectClass, keyed: KeyedDiff<D, L, M>, desired: readonly D[], live: readonly L[], owner: string): KeyedDiffResult<M> {
  const mine = new Map<string, L[]>();
  const others = new Map<string, L[]>();
  let owned = 0;
  for (const object of [...live].sort((a, b) => keyed.id(a) - keyed.id(b))) {
    const isOwned = keyed.owned(object, owner);
    if (isOwned) owned++;
    push(isOwned ? mine : others, `${keyed.client(object)}|${keyed.liveKey(object)}`, object);
  }
  const changes: M[] = [];
  const unmanaged: UnmanagedMatch[] = [];
  const conflicts: Conflict[] = [];
  let unchanged = 0;
  const declared = new Set<string>();
  for (const object of desired) {
    const key = `${keyed.client(object)}|${keyed.desiredKey(object)}`;
    if (declared.has(key)) continue;
    declared.add(key);
    const ours = mine.get(key) ?? [];
    const same = ours.find((o) => keyed.same(object, o));
    const kept = same ?? ours[0];
    if (kept !== undefined) {
      if (same) unchanged++;
      else changes.push(keyed.update(object, kept));
      for (const copy of ours) if (copy !== kept) changes.push(keyed.delete(copy, 'duplicate'));
      continue;
    }
    const theirs = others.get(key) ?? [];
    const satisfying = theirs.find((o) => keyed.same(object, o));
    const source = keyed.desiredSource(object);
    const client = keyed.client(object);
    if (satisfying !== undefined) {
      unmanaged.push({ kind, client, source, id: keyed.id(satisfying) });
      unchanged++;
    } else if (theirs[0] !== undefined) {
      const id = keyed.id(theirs[0]);
      conflicts.push({ kind, client, source, id, message: `an unmanaged ${kind} #${id} holds this declaration's key with other content; Rampart does not write it` });
    } else {
      changes.push(keyed.create(object));
    }
  }
  for (const [key, objects] of mine) {
    if (!declared.has(key)) changes.push(...objects.map((object) => keyed.delete(object, 'not-declared')));
  }
  return { changes, unchanged, owned, unmanaged, conflicts };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
