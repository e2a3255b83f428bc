/**
 * One copy of each repeated value of a read: the listing repeats the same
 * reason, owner and pools on thousands of objects, the same conditions and
 * points on thousands of rules, and each parsed answer holds its own copies.
 * Per read, so a daemon keeps nothing between cycles. Shared values are
 * immutable (the model's objects are readonly), so sharing is safe.
 */
import { getOrMake } from '../model/maps.js';
import type { Condition, Point } from '../model/rule.js';

/** A point element: a string or an index (`['path', 0]`); strings and numbers are distinct map keys. */
const END = Symbol('end of point');
type PointLevel = Map<string | number | typeof END, PointLevel | Point>;
const newPointLevel = (): PointLevel => new Map();

export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly numberLists = new Map<string, readonly number[]>();
  private readonly pools = new Map<number, readonly number[]>();
  /** Points by their elements, one map level per element; END holds the point that ends there. */
  private readonly points: PointLevel = new Map();
  /** Conditions by their (shared) point, type and value. */
  private readonly conditions = new Map<Point, Map<string, Map<string | null, Condition>>>();

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

  /** One copy of each point with the same elements, found without serializing it. */
  point(point: Point): Point {
    let level = this.points;
    for (const element of point) level = getOrMake(level, element, newPointLevel) as PointLevel;
    const known = level.get(END) as Point | undefined;
    if (known) return known;
    level.set(END, point);
    return point;
  }

  /** One copy of each condition with the same point, type and value; its point shared too. */
  condition(condition: Condition): Condition {
    const point = this.point(condition.point);
    const byType = getOrMake(this.conditions, point, () => new Map<string, Map<string | null, Condition>>());
    const byValue = getOrMake(byType, condition.type, () => new Map<string | null, Condition>());
    const known = byValue.get(condition.value);
    if (known) return known;
    const shared = point === condition.point ? condition : { ...condition, point };
    byValue.set(condition.value, shared);
    return shared;
  }
}
