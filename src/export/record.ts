/**
 * What an export wrote from objects nobody manages: `.rampart-export.json`,
 * next to the exported files (the policy loader skips dot files). A plan reads
 * it to say what will not happen: an exported object that no declaration
 * matches any more, still in the account and still unmanaged, stays there
 * (Rampart deletes only what carries its mark), and the plan says so instead
 * of showing "No changes" for a removal that never happens. Objects adopted
 * since carry the mark and are deleted as usual; the record no longer matters
 * for them.
 */
import type { ObjectClass } from '../model/object-class.js';
import { classesInPlanOrder } from '../plan/classes/index.js';
import { exportClass, exportedClasses } from './classes/index.js';
import type { ExportFile } from './export-file.js';
import type { PlacedObjects } from './types.js';
import { fileNameOf } from './types.js';
import type { ExportedObject } from '../model/exported.js';

export type { ExportedObject };

export const EXPORT_RECORD_FILE = '.rampart-export.json';


export interface ExportRecord {
  readonly format_version: 1;
  readonly client: number;
  readonly objects: readonly ExportedObject[];
}

export function buildRecord(client: number, placed: PlacedObjects, files: readonly ExportFile[]): ExportRecord {
  const written = new Set(files.map((f) => f.name));
  const unmanaged = <K extends ObjectClass>(kind: K): ExportedObject[] => placed[kind]
    .filter((p) => p.live.owner === undefined)
    .map((p) => ({ kind, client, ...exportClass(kind).handle(p.live), file: fileNameOf(p.scope) }));
  const objects = exportedClasses().flatMap(unmanaged).filter((o) => written.has(o.file));
  return { format_version: 1, client, objects };
}

/** The record's objects, or undefined when the text is not a record this version reads. */
export function parseRecord(text: string): ExportedObject[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = value as Partial<ExportRecord> | null;
  if (!record || record.format_version !== 1 || !Array.isArray(record.objects)) return undefined;
  return record.objects.filter((o): o is ExportedObject =>
    typeof o === 'object' && o !== null && classesInPlanOrder().includes(o.kind) && Number.isSafeInteger(o.client) && Number.isSafeInteger(o.id) && typeof o.file === 'string');
}
