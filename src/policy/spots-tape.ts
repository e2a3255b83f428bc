/**
 * A document's spots (source-map.ts) written flat, in the order the clean
 * path (clean-yaml.ts) walks the document, and built into spots the first
 * time a position is read. A file without a diagnostic needs positions only
 * for the plan lines of objects it creates or changes (a no-op plan reads
 * none), and a daemon keeps its files' maps between cycles: built at once,
 * the spots of 1,000 bench files held 6.3 MB (an object and three or four
 * arrays per collection); flat they are 4 bytes a slot.
 *
 * Each collection is a header slot (its entry count, doubled, plus one for a
 * mapping) followed by its entries; a mapping entry is its key's number (in
 * `KEY_NAMES`), its key's offset, then its value's; a value's offset is
 * doubled, plus one when the value is a collection, whose own slots follow at
 * once.
 */
import { ownCopy } from '../model/own-copy.js';
import type { Spots } from './source-map.js';

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

/** The spots the tape holds; undefined for a document that is no collection. */
export function readSpotsTape(tape: SpotsTape): Spots | undefined {
  const slots = tape;
  const keys = KEY_NAMES.names;
  let slot = 0;
  const collection = (): Spots => {
    const header = slots[slot++] as number;
    const count = header >> 1;
    const names = header & 1 ? new Array<string>(count) : undefined;
    const keyAt = names ? new Array<number>(count) : undefined;
    const valueAt = new Array<number>(count);
    let children: (Spots | undefined)[] | undefined;
    for (let i = 0; i < count; i++) {
      if (names && keyAt) {
        names[i] = keys[slots[slot++] as number] as string;
        keyAt[i] = slots[slot++] as number;
      }
      const value = slots[slot++] as number;
      valueAt[i] = value >> 1;
      if (value & 1) (children ??= new Array<Spots | undefined>(count))[i] = collection();
    }
    const spots: Spots = names && keyAt ? { keys: names, keyAt, valueAt } : { valueAt };
    return children ? { ...spots, children } : spots;
  };
  return slots.length === 0 ? undefined : collection();
}
