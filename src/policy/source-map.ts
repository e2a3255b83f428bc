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

  /** Finds the position of every source this map made that finds it only when read (DeferredSourceMap). */
  locateSources(): void {}

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
 * read from its tape in place (spots-tape.ts), and its sources find their
 * line and column (and name, when it is the path's) the first time one is
 * read. A file without a diagnostic needs positions only for the plan lines
 * of objects it creates or changes, and a no-op plan shows none; a file with
 * a warning on every rule asks for hundreds, and building its spots to answer
 * them held some 3.5 KB a warning (issue 49).
 */
export class DeferredSourceMap extends SourceMap {
  /** The parent path of the last source made: the values of one IP-list entry come one after another and share it. */
  private lastParent: Path | undefined;
  /** The sources made and not yet located. */
  private made: DeferredSource[] = [];

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

  /** A source whose line and column are found by `locateSources` (or when first read), its name when first read if it is the path's. */
  override source(file: string, path: Path, name?: string, atKey = false): Source {
    const source = path.length === 0
      ? new DeferredSource(file, name, this, path, undefined, atKey)
      : new DeferredSource(file, name, this, this.parentOf(path), path[path.length - 1], atKey);
    this.made.push(source);
    return source;
  }

  /**
   * Locates every source made so far, once the file is compiled: the sources
   * then hold two integers each and no longer the file's tape, which held
   * about a byte per byte of policy text for as long as the declarations
   * lived (18 MB at 100k rules + 100k IP values, the daemon's between cycles).
   */
  override locateSources(): void {
    for (const source of this.made) source.locate();
    this.made = [];
  }

  /** `path` without its last part, shared with the source made before when that had the same parent. */
  private parentOf(path: Path): Path {
    const last = this.lastParent;
    if (last && last.length === path.length - 1 && last.every((part, i) => part === path[i])) return last;
    return (this.lastParent = path.slice(0, -1));
  }
}

/** `DeferredSource`'s line before it is located: of the value, or of the key naming it. */
const UNLOCATED_VALUE = -1;
const UNLOCATED_KEY = -2;

/**
 * A declaration's source whose line and column are computed when its file is
 * compiled (`DeferredSourceMap.locateSources`) or, before that, the first time
 * either is read. A class, so the getters live once on the prototype: defining
 * two accessors on each of 60,000 objects took 130 to 180 ms of a load, this
 * takes about 15. `line` and `col` are therefore not own properties: a spread
 * would drop them (Rampart's code never spreads a source), JSON gets the plain
 * form from `toJSON`, and the tests compare sources by that form
 * (test/setup/sources.ts).
 */
export class DeferredSource implements Source {
  /** Until located: the map of its file, and through it the file's tape. */
  #map: SourceMap | undefined;
  /**
   * The path as its parent and last part: the values of one IP-list entry share
   * the parent, so 60,000 sources hold no path array each (about 5 MB a daemon
   * kept between cycles at 10k rules + 50k IP values).
   */
  readonly #parent: Path;
  /** Undefined for the document itself (an empty path). */
  readonly #last: string | number | undefined;
  /** UNLOCATED_VALUE or UNLOCATED_KEY until located; two small integers, no position object. */
  #line: number;
  #col = 0;
  /** Undefined until read when the name is the path's label: 50,000 IP values need no label string each. */
  #name: string | undefined;

  constructor(readonly file: string, name: string | undefined, map: SourceMap, parent: Path, last: string | number | undefined, atKey: boolean) {
    this.#name = name;
    this.#map = map;
    this.#parent = parent;
    this.#last = last;
    this.#line = atKey ? UNLOCATED_KEY : UNLOCATED_VALUE;
  }

  get name(): string {
    return (this.#name ??= pathLabel(this.#path()));
  }

  get line(): number {
    this.locate();
    return this.#line;
  }

  get col(): number {
    this.locate();
    return this.#col;
  }

  /** What JSON, logs and the tests see: the plain source. */
  toJSON(): Source {
    return { file: this.file, line: this.line, col: this.col, name: this.name };
  }

  /** Finds the line and column, and lets go of the map. */
  locate(): void {
    const map = this.#map;
    if (!map) return;
    const { line, col } = this.#line === UNLOCATED_KEY ? map.keyAt(this.#path()) : map.at(this.#path());
    this.#line = line;
    this.#col = col;
    this.#map = undefined;
  }

  #path(): Path {
    return this.#last === undefined ? this.#parent : [...this.#parent, this.#last];
  }
}
