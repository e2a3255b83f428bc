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
 * mapping) followed by its entries; a mapping entry is its key's offset, then
 * its value's; a value's offset is doubled, plus one when the value is a
 * collection, whose own slots follow at once. Keys go to a list of their own,
 * in the same order.
 */
import type { Spots } from './source-map.js';

export interface SpotsTape {
  readonly slots: Int32Array;
  readonly keys: readonly string[];
}

/** Offsets past this do not fit a slot doubled; the clean path declines such a text. */
export const MAX_TAPE_OFFSET = 2 ** 30 - 1;

export class SpotsTapeWriter {
  private readonly slots: number[] = [];
  private readonly keys: string[] = [];

  /** A collection of `count` entries starts; its entries follow. */
  collection(count: number, mapping: boolean): void {
    this.slots.push(count * 2 + (mapping ? 1 : 0));
  }

  /** An entry of a sequence; when `collection`, the item's own collection is written next. */
  item(valueAt: number, collection: boolean): void {
    this.slots.push(valueAt * 2 + (collection ? 1 : 0));
  }

  /** An entry of a mapping; when `collection`, the value's own collection is written next. */
  member(key: string, keyAt: number, valueAt: number, collection: boolean): void {
    this.keys.push(key);
    this.slots.push(keyAt, valueAt * 2 + (collection ? 1 : 0));
  }

  done(): SpotsTape {
    return { slots: Int32Array.from(this.slots), keys: this.keys };
  }
}

/** The spots the tape holds; undefined for a document that is no collection. */
export function readSpotsTape(tape: SpotsTape): Spots | undefined {
  const { slots, keys } = tape;
  let slot = 0;
  let key = 0;
  const collection = (): Spots => {
    const header = slots[slot++] as number;
    const count = header >> 1;
    const names = header & 1 ? new Array<string>(count) : undefined;
    const keyAt = names ? new Array<number>(count) : undefined;
    const valueAt = new Array<number>(count);
    let children: (Spots | undefined)[] | undefined;
    for (let i = 0; i < count; i++) {
      if (names && keyAt) {
        names[i] = keys[key++] as string;
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
