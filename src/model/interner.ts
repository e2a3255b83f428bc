/**
 * One copy of each repeated value: a listing repeats the same reason, owner
 * and pools on thousands of objects, a policy file the same points and
 * instance conditions on each of its rules, and each parsed answer or
 * document holds its own copies. One per read (live/read.ts) and one per
 * policy document (policy/compile-document.ts), so nothing outlives what it
 * was made for. Shared values are immutable (the model's objects are
 * readonly), so sharing is safe.
 */
import { getOrMake } from './maps.js';
import type { Condition, Point } from './rule.js';

/** A point element: a string or an index (`['path', 0]`); strings and numbers are distinct map keys. */
const END = Symbol('end of point');
type PointLevel = Map<string | number | typeof END, PointLevel | Point>;
const newPointLevel = (): PointLevel => new Map();
type PointListLevel = Map<Point | typeof END, PointListLevel | readonly Point[]>;
const newPointListLevel = (): PointListLevel => new Map();

export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly numberLists = new Map<string, readonly number[]>();
  private readonly pools = new Map<number, readonly number[]>();
  /** Points by their elements, one map level per element; END holds the point that ends there. */
  private readonly points: PointLevel = new Map();
  /** Lists of (shared) points by their points, one map level per point; END holds the list that ends there. */
  private readonly pointLists: PointListLevel = new Map();
  /** Conditions by their (shared) point, type and value. */
  private readonly conditions = new Map<Point, Map<string, Map<string | null, Condition>>>();
  /** The records `recent` kept last in each group, newest first. */
  private readonly recents = new Map<unknown, object[]>();

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

  /** One copy of each list of the same points (a rule's `point`), its points shared too. */
  pointList(points: readonly Point[]): readonly Point[] {
    let level = this.pointLists;
    // Filled in one loop, not made by `map` and walked again: a rule compiler inlines this, and the JIT
    // threw that compiled code away the first time the walk met a list made by `map` (the validate
    // bench's cold load compiled its rule compiler twice).
    const shared = new Array<Point>(points.length);
    for (let i = 0; i < points.length; i++) {
      const one = this.point(points[i] as Point);
      shared[i] = one;
      level = getOrMake(level, one, newPointListLevel) as PointListLevel;
    }
    const known = level.get(END) as readonly Point[] | undefined;
    if (known) return known;
    level.set(END, shared);
    return shared;
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

  /**
   * One of the few records last kept in `group` (any key: a list's name, a
   * rule kind) whose own members are the same values (`===`), or `record`,
   * now kept. For records a listing repeats in runs (an IP object's
   * attributes, a rule's fields); kept by value in a map, the unique ones (a
   * regex per rule) would each hold a map level for the whole read.
   */
  recent<T extends object>(group: unknown, record: T): T {
    const kept = getOrMake(this.recents, group, () => []);
    for (let i = 0; i < kept.length; i++) {
      const known = kept[i] as T;
      if (sameMembers(known, record)) return known;
    }
    if (kept.length === RECENT_PER_GROUP) kept.pop();
    kept.unshift(record);
    return record;
  }
}

/** Records `recent` compares a new one with, per group. */
const RECENT_PER_GROUP = 4;

function sameMembers(a: object, b: object): boolean {
  const x = a as Readonly<Record<string, unknown>>;
  const y = b as Readonly<Record<string, unknown>>;
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(y, key) || x[key] !== y[key]) return false;
    count++;
  }
  for (const _key in y) count--;
  return count === 0;
}
