/**
 * One copy of each repeated value of a read: the listing repeats the same
 * reason, owner and pools on thousands of objects, the same conditions and
 * points on thousands of rules, and each parsed answer holds its own copies.
 * Per read, so a daemon keeps nothing between cycles. Shared values are
 * immutable (the model's objects are readonly), so sharing is safe.
 */
export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly numberLists = new Map<string, readonly number[]>();
  private readonly pools = new Map<number, readonly number[]>();
  private readonly values = new Map<string, unknown>();

  string<T extends string | undefined>(value: T): T {
    if (value === undefined) return value;
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    this.strings.set(value, value);
    return value;
  }

  numbers(values: readonly number[]): readonly number[] {
    const key = values.join(',');
    const known = this.numberLists.get(key);
    if (known) return known;
    this.numberLists.set(key, values);
    return values;
  }

  /** One copy of the list holding just `value` (an object's one application), keyed without a string. */
  pool(value: number): readonly number[] {
    let known = this.pools.get(value);
    if (!known) {
      known = this.numbers([value]);
      this.pools.set(value, known);
    }
    return known;
  }

  /** One copy of each value with the same key (the caller's canonical key of it). */
  value<T>(key: string, value: T): T {
    const known = this.values.get(key);
    if (known !== undefined) return known as T;
    this.values.set(key, value);
    return value;
  }
}
