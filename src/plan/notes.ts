import type { ObjectClass } from '../model/object-class.js';
import type { Source } from '../model/source.js';

/**
 * Something the plan does not change but a person should know: a desired
 * object already provided by an object Rampart does not own (`info`), or one
 * that an unmanaged object blocks with different attributes (`warning`).
 */
export interface Note {
  readonly level: 'info' | 'warning';
  readonly kind: ObjectClass;
  readonly client: number;
  /** The policy line declaring the object. */
  readonly source: Source;
  /** The live object the note is about. */
  readonly id: number;
  readonly message: string;
}

/** ` (owner team-a)` for an object another Rampart owner manages, else empty. */
export function ownerSuffix(owner: string | undefined): string {
  return owner === undefined ? '' : ` (owner ${owner})`;
}

export function compareSources(a: Source, b: Source): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.col !== b.col) return a.col - b.col;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * A live object the write journal added for a create the listing does not
 * show yet: its id is not known (below zero). It counts as present, is never
 * deleted, and a listed copy is preferred to it.
 */
export function isPlaceholder(object: { readonly id: number }): boolean {
  return object.id < 0;
}
