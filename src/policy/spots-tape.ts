/**
 * A document's spots (source-map.ts) written flat, in the order the clean
 * path (clean-yaml.ts) walks the document, and read in place when a position
 * is asked for. A file without a diagnostic needs positions only for the plan
 * lines of objects it creates or changes (a no-op plan reads none), and a
 * daemon keeps its files' maps between cycles: built, the spots of 1,000
 * bench files held 6.3 MB (an object and three or four arrays per
 * collection); flat they are 4 bytes a slot.
 *
 * Each collection is a header slot (its entry count, doubled, plus one for a
 * mapping) followed by its entries; a mapping entry is its key's number (in
 * `KEY_NAMES`), its key's offset, then its value's; a value's offset is
 * doubled, plus one when the value is a collection, whose own slots follow at
 * once.
 */
import { ownCopy } from '../model/own-copy.js';
import { sequenceIndex, type Path, type SpotsOffsets } from './source-map.js';

/** The slots; a tape is nothing else. */
export type SpotsTape = Int32Array;

/** Offsets past this do not fit a slot doubled; the clean path declines such a text. */
export const MAX_TAPE_OFFSET = 2 ** 30 - 1;

/**
 * Every mapping key the tapes name, once for the process: policy files repeat
 * the same few dozen (`name`, `type`, `point`), and a list of a file's keys
 * kept with its tape held 0.6 MB of the 13.3 MB 1,000 loaded files kept.
 * Bounded: past `MAX_KEY_NAMES` distinct keys (files
 * inventing keys without end, in a long-running daemon) a tape takes no new
 * one, and the clean path declines the text.
 */
export class KeyNames {
  private readonly numbers = new Map<string, number>();
  readonly names: string[] = [];

  constructor(private readonly max = MAX_KEY_NAMES) {}

  /** The key's number; undefined when the table is full. */
  numberOf(name: string): number | undefined {
    const known = this.numbers.get(name);
    if (known !== undefined || this.names.length >= this.max) return known;
    // A copy of its own: the name may be a slice of the text it was read from (own-copy.ts).
    const own = ownCopy(name);
    this.numbers.set(own, this.names.length);
    this.names.push(own);
    return this.names.length - 1;
  }

  /** The key's number when it has one; never adds it. */
  known(name: string): number | undefined {
    return this.numbers.get(name);
  }
}

export const MAX_KEY_NAMES = 65_536;

const KEY_NAMES = new KeyNames();

export class SpotsTapeWriter {
  private readonly slots: number[] = [];

  /** A collection of `count` entries starts; its entries follow. */
  collection(count: number, mapping: boolean): void {
    this.slots.push(count * 2 + (mapping ? 1 : 0));
  }

  /** An entry of a sequence; when `collection`, the item's own collection is written next. */
  item(valueAt: number, collection: boolean): void {
    this.slots.push(valueAt * 2 + (collection ? 1 : 0));
  }

  /**
   * An entry of a mapping; when `collection`, the value's own collection is
   * written next. False when the key cannot be named (`KeyNames` is full).
   */
  member(key: string, keyAt: number, valueAt: number, collection: boolean): boolean {
    const number = KEY_NAMES.numberOf(key);
    if (number === undefined) return false;
    this.slots.push(number, keyAt, valueAt * 2 + (collection ? 1 : 0));
    return true;
  }

  done(): SpotsTape {
    return Int32Array.from(this.slots);
  }
}

/**
 * Collections with more entries than this keep where each entry starts, and
 * where they end, once a lookup has walked them: a file of 500 rules each with
 * a warning asks for a position in that list 500 times, and each lookup passes
 * the top-level mapping, whose later keys lie past the whole list.
 */
const INDEXED_ENTRIES = 16;

/**
 * Lookups read straight from the tape, never building its spots: a subtree is
 * skipped by walking its slots, and a long collection's entry starts and end
 * are kept once walked (4 bytes an entry, only for collections a lookup went
 * through).
 */
export class TapeReader implements SpotsOffsets {
  private readonly starts = new Map<number, Int32Array>();
  private readonly ends = new Map<number, number>();

  constructor(private readonly tape: SpotsTape) {}

  valueAt(path: Path, rootAt: number): number {
    let found = rootAt;
    let header = this.tape.length === 0 ? -1 : 0;
    for (const part of path) {
      if (header < 0) break;
      const slot = this.entrySlot(header, part);
      if (slot < 0) break;
      const valueSlot = this.isMapping(header) ? slot + 2 : slot;
      const value = this.tape[valueSlot] as number;
      if (value >> 1 >= 0) found = value >> 1;
      header = value & 1 ? valueSlot + 1 : -1;
    }
    return found;
  }

  keyAt(path: Path): number {
    if (path.length === 0) return -1;
    let header = this.tape.length === 0 ? -1 : 0;
    for (let i = 0; i < path.length - 1 && header >= 0; i++) {
      const slot = this.entrySlot(header, path[i] as string | number);
      if (slot < 0) return -1;
      const valueSlot = this.isMapping(header) ? slot + 2 : slot;
      header = (this.tape[valueSlot] as number) & 1 ? valueSlot + 1 : -1;
    }
    if (header < 0 || !this.isMapping(header)) return -1;
    const slot = this.entrySlot(header, path[path.length - 1] as string | number);
    return slot < 0 ? -1 : (this.tape[slot + 1] as number);
  }

  private isMapping(header: number): boolean {
    return ((this.tape[header] as number) & 1) === 1;
  }

  /** The slot of the entry `part` names in the collection at `header` (the last of a key, as in the data), or -1. */
  private entrySlot(header: number, part: string | number): number {
    const head = this.tape[header] as number;
    const count = head >> 1;
    if (head & 1) {
      const number = KEY_NAMES.known(String(part));
      if (number === undefined) return -1;
      let slot = -1;
      for (let i = 0, at = header + 1; i < count; i++, at = this.after(at, true)) if (this.tape[at] === number) slot = at;
      return slot;
    }
    const index = sequenceIndex(part, count);
    if (index < 0) return -1;
    return count > INDEXED_ENTRIES ? (this.entryStarts(header, count)[index] as number) : this.walk(header + 1, index, false);
  }

  private entryStarts(header: number, count: number): Int32Array {
    let starts = this.starts.get(header);
    if (!starts) {
      starts = new Int32Array(count);
      for (let i = 0, at = header + 1; i < count; i++, at = this.after(at, false)) starts[i] = at;
      this.starts.set(header, starts);
    }
    return starts;
  }

  /** The slot of entry `index` of a collection whose first entry is at `first`. */
  private walk(first: number, index: number, mapping: boolean): number {
    let at = first;
    for (let i = 0; i < index; i++) at = this.after(at, mapping);
    return at;
  }

  /** The slot after the entry at `slot`, its value's collection included. */
  private after(slot: number, mapping: boolean): number {
    const valueSlot = mapping ? slot + 2 : slot;
    return (this.tape[valueSlot] as number) & 1 ? this.end(valueSlot + 1) : valueSlot + 1;
  }

  /** The slot after the collection whose header is at `header`. */
  private end(header: number): number {
    const head = this.tape[header] as number;
    const count = head >> 1;
    const known = count > INDEXED_ENTRIES ? this.ends.get(header) : undefined;
    if (known !== undefined) return known;
    const mapping = (head & 1) === 1;
    let at = header + 1;
    for (let i = 0; i < count; i++) at = this.after(at, mapping);
    if (count > INDEXED_ENTRIES) this.ends.set(header, at);
    return at;
  }
}
