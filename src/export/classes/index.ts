/**
 * The object classes as `rampart export` writes them, by the class's name
 * (model/object-class.ts). A new class adds its module here and one entry below.
 */
import { ClassTable } from '../../model/class-table.js';
import { registeredClasses, type ObjectClass, type ObjectClassModels } from '../../model/object-class.js';
import type { ExportClass } from './class.js';
import { IP_EXPORT } from './ip.js';
import { RULE_EXPORT } from './rules.js';

export type { ClassSkip, ExportClass, YamlNodes } from './class.js';

const EXPORT_CLASSES = {
  rule: RULE_EXPORT,
  ip: IP_EXPORT,
} as const satisfies { readonly [K in ObjectClass]: ExportClass<ObjectClassModels[K]['live'], ObjectClassModels[K]['desired']> };

/** How many objects of each class an export file holds, under each class's field (`rules`, `ipValues`). */
export type ExportCounts = { readonly [K in ObjectClass as (typeof EXPORT_CLASSES)[K]['counted']]: number };

const BUILT_IN: { readonly [K in ObjectClass]: ExportClass<ObjectClassModels[K]['live'], ObjectClassModels[K]['desired']> } = EXPORT_CLASSES;

const BY_CLASS = new ClassTable<ExportClass<unknown, unknown>>('export side', BUILT_IN);

/** A class `rampart export` writes into policy files. A class may go without: its objects are left out as unmappable. */
export function registerExportClass<L, D>(kind: string, exportClass: ExportClass<L, D>): () => void {
  // Sound: the table hands the class only objects of its own `kind`.
  return BY_CLASS.register(kind, exportClass as unknown as ExportClass<unknown, unknown>);
}

/** Whether a class has an export side: a class without one is left out of an export, as unmappable (select.ts). */
export function hasExportSide(kind: ObjectClass): boolean {
  return BY_CLASS.has(kind);
}

/** The classes `rampart export` writes, in the registry's order. */
export function exportedClasses(): readonly ObjectClass[] {
  return registeredClasses().filter(hasExportSide);
}

/** The class by name. */
export function exportClass<K extends ObjectClass>(kind: K): ExportClass<ObjectClassModels[K]['live'], ObjectClassModels[K]['desired']> {
  // Sound: the table holds each class's side under its name.
  return BY_CLASS.get(kind) as unknown as ExportClass<ObjectClassModels[K]['live'], ObjectClassModels[K]['desired']>;
}
