/**
 * Which live objects an export writes, and into which file's scope. Pure.
 *
 * Each class (classes/) leaves out, with a reason: objects carrying another
 * owner's mark (and ours with `excludeOwned`), what no policy file can
 * express, and the extra copies of duplicates and conflicts the policy
 * format rejects. Leaving out an unmarked object is always plan-neutral:
 * Rampart never deletes what it does not own.
 */
import { compareStrings } from '../model/compare.js';
import { objectsOf, type ObjectClass } from '../model/object-class.js';
import type { LiveState } from '../model/state.js';
import { planClass } from '../plan/classes/index.js';
import { exportClass, hasExportSide } from './classes/index.js';
import { placedByClass, type ExportOptions, type Selection, type Skipped } from './types.js';

export function selectObjects(live: LiveState, options: Pick<ExportOptions, 'client' | 'owner' | 'excludeOwned' | 'now'>): Selection {
  const skipped: Skipped[] = [];
  const placed = placedByClass(<K extends ObjectClass>(kind: K) => {
    const objects = objectsOf<K, 'live'>(live, kind).filter((o) => o.client === options.client);
    if (!hasExportSide(kind)) {
      for (const { id } of objects) skipped.push({ kind, id, reason: 'unmappable', detail: `no policy file can hold a ${kind}: its class has no export side` });
      return [];
    }
    const selected = exportClass(kind).select(objects, options);
    for (const skip of selected.skipped) skipped.push({ kind, ...skip });
    return selected.placed;
  });
  return { placed, skipped: sortSkipped(skipped) };
}

export function sortSkipped(skipped: readonly Skipped[]): Skipped[] {
  return [...skipped].sort(
    (a, b) =>
      planClass(a.kind).order - planClass(b.kind).order ||
      a.id - b.id ||
      compareStrings(a.value ?? '', b.value ?? ''),
  );
}
