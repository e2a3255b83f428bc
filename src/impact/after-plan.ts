/**
 * The account as it would be after a plan, for one class: the live objects
 * less the ids the changes take away, with the objects they put there (each
 * class says what its changes leave: classes/).
 */
import type { ChangeOf } from '../model/change.js';
import type { ObjectClass } from '../model/object-class.js';
import { impactClass, type ImpactObjects } from './classes/index.js';

export function objectsAfter<K extends ObjectClass>(
  kind: K, live: readonly (ImpactObjects[K] & { readonly id: number })[], changes: readonly ChangeOf<K>[],
): ImpactObjects[K][] {
  const objectClass = impactClass(kind);
  const gone = new Set<number>();
  const put: ImpactObjects[K][] = [];
  for (const change of changes) {
    const leaves = objectClass.leaves(change);
    for (const id of leaves.gone) gone.add(id);
    put.push(...leaves.put);
  }
  return [...live.filter((object) => !gone.has(object.id)), ...put];
}
