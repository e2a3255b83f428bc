/**
 * The canonical form of conditions, applied to both sides so that the
 * server's own normalization never shows up as a change: `iequal` values
 * lower-cased, `equal` on the HOST header stored as `iequal`, instance ids as
 * strings, `absent` with a null value. A condition's point takes the points'
 * canonical form (grammar/points.ts).
 */
import { canonicalPoint, type Point } from '../grammar/points.js';
import type { Condition, ConditionType } from './rule.js';

/**
 * The service refuses `equal` on the HOST header and stores it as `iequal`
 * (host names are case-insensitive); a condition written that way reads back so.
 */
export function isHostEqual(point: Point, type: string): boolean {
  return type === 'equal' && point.length === 2 && point[0] === 'header' && point[1] === 'HOST';
}

export function canonicalCondition(condition: {
  point: readonly (string | number)[];
  type: string;
  value?: string | number | null;
}): Condition {
  const point = canonicalPoint(condition.point);
  const written = condition.type as ConditionType;
  const type: ConditionType = isHostEqual(point, written) ? 'iequal' : written;
  if (point[0] === 'instance') return { point, type: 'equal', value: String(condition.value ?? '') };
  if (type === 'absent') return { point, type, value: null };
  const value = condition.value === null || condition.value === undefined ? null : String(condition.value);
  return { point, type, value: type === 'iequal' && value !== null ? value.toLowerCase() : value };
}
