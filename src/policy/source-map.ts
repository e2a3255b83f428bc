/**
 * Where each value of a parsed document came from. Lookups take a path
 * (`['rules', 0, 'point']`) or a JSON pointer (`/rules/0/point`, the paths ajv
 * reports), so schema errors and semantic checks both land on the right line
 * and column.
 *
 * The map mirrors the document's mappings and sequences and holds only source
 * offsets; line and column are computed when a position is asked for. Loading
 * 10,000 rules and 50,000 addresses records some 300,000 nodes and asks for
 * the position of a fifth of them.
 */
import type { Source } from '../model/source.js';
import type { Position } from './types.js';

export type Path = readonly (string | number)[];

export function pointer(path: Path): string {
  let out = '';
  for (const part of path) {
    const text = String(part);
    out += '/' + (text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text);
  }
  return out;
}

/** The path a JSON pointer names (RFC 6901 unescaping). */
export function parsePointer(ptr: string): string[] {
  if (ptr === '') return [];
  return ptr
    .slice(1)
    .split('/')
    .map((part) => (part.includes('~') ? part.replace(/~1/g, '/').replace(/~0/g, '~') : part));
}

/** Offsets of one mapping's or sequence's entries; -1 where none was recorded. */
export interface Spots {
  /** Mapping only: each entry's key, in document order. A sequence is indexed by position. */
  readonly keys?: readonly string[];
  /** Mapping only: where each key starts. */
  readonly keyAt?: readonly number[];
  /** Where each entry's value starts. */
  readonly valueAt: readonly number[];
  /** The spots of entries that are themselves collections (absent when none is). */
  readonly children?: readonly (Spots | undefined)[];
}

/** Turns a source offset into a 1-based line and column. */
export type Locate = (offset: number) => Position;

const START: Position = { line: 1, col: 1 };

export class SourceMap {
  constructor(
    private readonly locate: Locate = () => START,
    /** Offset of the document's top-level value; -1 when there is none. */
    protected readonly rootAt = -1,
    private readonly root?: Spots,
  ) {}

  /** Position of the value at `ptr`, or of its nearest known ancestor. */
  value(ptr: string): Position {
    return this.at(parsePointer(ptr));
  }

  /** Position of the key naming the value at `ptr` (the value's own position for list items). */
  key(ptr: string): Position {
    return this.keyAt(parsePointer(ptr));
  }

  at(path: Path): Position {
    let found = this.rootAt;
    let spots = this.root;
    for (const part of path) {
      if (!spots) break;
      const index = entryIndex(spots, part);
      if (index < 0) break;
      const offset = spots.valueAt[index] ?? -1;
      if (offset >= 0) found = offset;
      spots = spots.children?.[index];
    }
    return this.position(found);
  }

  /** The line and column of a source offset; the document's start for none (-1). */
  protected position(offset: number): Position {
    return offset >= 0 ? this.locate(offset) : START;
  }

  /** Where a declaration at `path` comes from, for the objects compiled from it; named by its path unless `name` is given. */
  source(file: string, path: Path, name?: string, atKey = false): Source {
    const { line, col } = atKey ? this.keyAt(path) : this.at(path);
    return { file, line, col, name: name ?? pathLabel(path) };
  }

  keyAt(path: Path): Position {
    let spots = this.root;
    for (let i = 0; i < path.length - 1 && spots; i++) {
      const index = entryIndex(spots, path[i] as string | number);
      spots = index < 0 ? undefined : spots.children?.[index];
    }
    const last = path[path.length - 1];
    if (spots?.keys && last !== undefined) {
      const index = entryIndex(spots, last);
      const offset = index < 0 ? -1 : (spots.keyAt?.[index] ?? -1);
      if (offset >= 0) return this.locate(offset);
    }
    return this.at(path);
  }
}

/** A path as a person reads it: `ip_lists.deny[0].ips[1]`. */
export function pathLabel(path: Path): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

/** The index `part` names in a sequence of `count` items, or -1. */
export function sequenceIndex(part: string | number, count: number): number {
  const index = typeof part === 'number' ? part : /^(0|[1-9]\d*)$/.test(part) ? Number(part) : -1;
  return Number.isInteger(index) && index >= 0 && index < count ? index : -1;
}

/** Which entry `part` names: a key of a mapping (the last one, as in the data), an index of a sequence. */
function entryIndex(spots: Spots, part: string | number): number {
  return spots.keys ? spots.keys.lastIndexOf(String(part)) : sequenceIndex(part, spots.valueAt.length);
}

/** Source offsets read from somewhere other than built spots (spots-tape.ts); -1 where none is known. */
export interface SpotsOffsets {
  /** Where the value at `path` starts, or its nearest known ancestor's; `rootAt` when none is. */
  valueAt(path: Path, rootAt: number): number;
  /** Where the key naming the value at `path` starts. */
  keyAt(path: Path): number;
}

/**
 * The map of a file read on the clean path (clean-yaml.ts): positions are
 * read from its tape in place (spots-tape.ts). A file with a warning on every
 * rule asks for hundreds, and building its spots to answer them held some
 * 3.5 KB a warning (issue 49). Its sources are plain, their positions found as
 * they are made: the tape is then no longer needed once the file is compiled.
 */
export class TapeSourceMap extends SourceMap {
  constructor(locate: Locate, rootAt: number, private readonly tape: SpotsOffsets) {
    super(locate, rootAt);
  }

  override at(path: Path): Position {
    return this.position(this.tape.valueAt(path, this.rootAt));
  }

  override keyAt(path: Path): Position {
    const offset = this.tape.keyAt(path);
    return offset >= 0 ? this.position(offset) : this.at(path);
  }
}
