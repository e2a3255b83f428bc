/**
 * The values `rampart export` works with: which live objects go into which
 * policy file, and which were left out and why.
 */
import { perClass, type ObjectClass, type ObjectClassModels } from '../model/object-class.js';

/** Which applications a file covers: `all` (account-wide) or sorted ids. */
export type Scope = { readonly kind: 'all' } | { readonly kind: 'apps'; readonly apps: readonly number[] };

export const SKIP_REASONS = [
  'owned',
  'other-owner',
  'expired',
  'duplicate',
  'conflict',
  'unmappable',
  'invalid',
  'no-round-trip',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** How a live object is named in the report and the export record: its API id, and for an IP entry its value. */
export interface ObjectHandle {
  /** The API id of the rule or IP object. */
  readonly id: number;
  /** For IP entries: the value (address, country, ...). */
  readonly value?: string;
}

export interface Skipped extends ObjectHandle {
  readonly kind: ObjectClass;
  readonly reason: SkipReason;
  readonly detail: string;
}

/** A live object placed in the file of its scope. */
export interface Placed<T> {
  readonly scope: Scope;
  readonly live: T;
}

/** Each class's placed live objects. */
export type PlacedObjects = { readonly [K in ObjectClass]: readonly Placed<ObjectClassModels[K]['live']>[] };

/** Each class's placed objects, as `make` gives them for the class. */
export function placedByClass(make: <K extends ObjectClass>(kind: K) => readonly Placed<ObjectClassModels[K]['live']>[]): PlacedObjects {
  // Sound: PlacedObjects[K] is the list `make` places for K.
  return perClass<PlacedObjects>(make as <K extends ObjectClass>(kind: K) => PlacedObjects[K]);
}

export interface Selection {
  readonly placed: PlacedObjects;
  readonly skipped: readonly Skipped[];
}

export interface ExportOptions {
  readonly client: number;
  /** The owner name whose marked objects count as "owned". */
  readonly owner: string;
  /**
   * Leave out objects carrying `owner`'s mark (`--exclude-owned`), for an
   * export written next to the policies that already declare them. By default
   * they are exported: the output is the whole account, and a plan of it
   * alone deletes nothing.
   */
  readonly excludeOwned: boolean;
  /** Unix seconds: entries expiring at or before this are left out. */
  readonly now: number;
  /** What the `yaml-language-server` modeline points at. */
  readonly schemaRef: string;
}

export function fileNameOf(scope: Scope): string {
  if (scope.kind === 'all') return 'account-wide.yaml';
  if (scope.apps.length === 1) return `app-${scope.apps[0]}.yaml`;
  return `apps-${scope.apps.join('-')}.yaml`;
}

/** Every exported file says this in its header comment; `writeExport` recognises its own files by it. */
export const EXPORT_HEADER = 'Written by `rampart export';
