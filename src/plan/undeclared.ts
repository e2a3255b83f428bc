/**
 * What a plan deletes only because these policies do not declare it: the
 * owned objects of `not-declared` deletes. Planned from a scratch directory
 * or the wrong `--policies`, they are what another directory of the same
 * owner manages, and the plan says so before its changes (render/layout.ts).
 *
 * Which file last declared each is known only where this directory's export
 * record names it (an object exported here, adopted since, then removed from
 * its file): an owner mark keeps a rule's name, never its file, and Rampart
 * records nothing else about another directory. The rest are counted as
 * unknown, and the rules' names are given instead.
 */
import type { Change } from '../model/change.js';
import type { ExportedObject } from '../model/exported.js';
import { compareStrings } from '../model/compare.js';
import { hasUndeclared } from './classes/class.js';
import { planClassOf } from './classes/index.js';
import type { PlanUndeclared } from './types.js';

const key = (kind: string, client: number, id: number, value: string | undefined) => `${kind}|${client}|${id}|${value ?? ''}`;

/** The file the export record says declared each object, by class, client, id and value. */
export function exportedFiles(exported: readonly ExportedObject[]): ReadonlyMap<string, string> {
  return new Map(exported.map((o) => [key(o.kind, o.client, o.id, o.value), o.file]));
}

/** The plan's undeclared objects, or undefined when it deletes none. */
export function undeclaredOf(changes: readonly Change[], files: ReadonlyMap<string, string>): PlanUndeclared | undefined {
  let count = 0;
  let unknown = 0;
  const known = new Set<string>();
  const names = new Set<string>();
  for (const change of changes) {
    const objectClass = planClassOf(change);
    // A class that names no undeclared objects is not counted here; the guard still counts its deletes.
    if (!hasUndeclared(objectClass)) continue;
    for (const object of objectClass.undeclared(change)) {
      count += 1;
      // Without an export record no key is looked up (a plan deleting 20k values built 20k keys for an empty map).
      const file = files.size === 0 ? undefined : files.get(key(change.kind, objectClass.client(change), object.id, object.value));
      if (file === undefined) unknown += 1;
      else known.add(file);
      if (object.name !== undefined) names.add(object.name);
    }
  }
  if (count === 0) return undefined;
  return { count, files: [...known].sort(compareStrings), files_unknown: unknown, names: [...names].sort(compareStrings) };
}
