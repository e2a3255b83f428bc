/**
 * A set of short hex digests (fingerprints, remembered IP keys) packed into
 * one sorted array of 32-bit words. A daemon keeps the last converged run's
 * declarations between cycles: 60,000 keys at 10k rules + 50k IP values,
 * 3.3 MB as a `Set` of strings (its table and a string per key), 0.6 MB here.
 * Keys that are not all lowercase hex of one length (a memory file edited by
 * hand) stay a plain `Set`: membership is the same either way.
 */

export interface KeySet extends Iterable<string> {
  readonly size: number;
  has(key: string): boolean;
}

const HEX = /^[0-9a-f]+$/;
/** Hex digits per 32-bit word. */
const DIGITS = 8;

export function keySet(keys: Iterable<string>): KeySet {
  const sorted = [...new Set(keys)].sort();
  const length = sorted[0]?.length ?? 0;
  if (length === 0 || !sorted.every((key) => key.length === length && HEX.test(key))) return new Set(sorted);
  return new PackedKeySet(sorted, length);
}

/** Whether two sets hold the same keys. */
export function sameKeys(a: KeySet, b: KeySet): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  if (a instanceof PackedKeySet && b instanceof PackedKeySet) return a.sameAs(b);
  for (const key of a) if (!b.has(key)) return false;
  return true;
}

class PackedKeySet implements KeySet {
  /** Words per key, the key's digits in order; keys in ascending order. */
  private readonly words: Uint32Array;
  private readonly width: number;

  /** `sorted`: distinct lowercase hex keys of `length` digits, in ascending order (as strings, which is as numbers). */
  constructor(sorted: readonly string[], private readonly length: number) {
    this.width = Math.ceil(length / DIGITS);
    this.words = new Uint32Array(sorted.length * this.width);
    sorted.forEach((key, i) => this.pack(key, i * this.width));
  }

  get size(): number {
    return this.words.length / this.width;
  }

  has(key: string): boolean {
    if (key.length !== this.length || !HEX.test(key)) return false;
    const probe = new Uint32Array(this.width);
    for (let w = 0; w < this.width; w++) probe[w] = parseInt(key.slice(w * DIGITS, (w + 1) * DIGITS), 16);
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(middle, probe);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.size; i++) {
      let key = '';
      for (let w = 0; w < this.width; w++) {
        const digits = Math.min(DIGITS, this.length - w * DIGITS);
        key += (this.words[i * this.width + w] as number).toString(16).padStart(digits, '0');
      }
      yield key;
    }
  }

  sameAs(other: PackedKeySet): boolean {
    if (other.length !== this.length || other.words.length !== this.words.length) return false;
    return this.words.every((word, i) => word === other.words[i]);
  }

  private pack(key: string, at: number): void {
    for (let w = 0; w < this.width; w++) this.words[at + w] = parseInt(key.slice(w * DIGITS, (w + 1) * DIGITS), 16);
  }

  /** The key at `index` against `probe`, word by word. */
  private compare(index: number, probe: Uint32Array): number {
    const at = index * this.width;
    for (let w = 0; w < this.width; w++) {
      const word = this.words[at + w] as number;
      const wanted = probe[w] as number;
      if (word !== wanted) return word < wanted ? -1 : 1;
    }
    return 0;
  }
}
