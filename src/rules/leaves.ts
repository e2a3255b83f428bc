/**
 * Leaf values of nested fields that need more than a scalar: a duration
 * (`600`, `10m`, `1h`, `7d`, canonical in seconds) and a point (two-level in
 * YAML as everywhere; on the wire as the service's own client writes it).
 */
import { canonicalPoint, regroupPoints, type Point } from '../grammar/points.js';
import { readPoint } from '../grammar/point-grammar.js';
import { field, type FieldFactory } from './field.js';

const UNITS = [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const;
const DURATION = /^(\d+)([smhd]?)$/;

/** `600`, `"600"`, `"10m"`: seconds. The schema has let only these shapes through. */
export function durationSeconds(written: number | string): number {
  if (typeof written === 'number') return written;
  const [, amount = '0', unit = ''] = DURATION.exec(written) ?? [];
  return Number(amount) * (UNITS.find(([u]) => u === unit)?.[1] ?? 1);
}

/** Seconds in the largest unit that divides them: `3600` → `1h`, `90` → `90s`. */
export function formatDuration(seconds: number): string {
  const [unit, size] = UNITS.find(([, s]) => seconds > 0 && seconds % s === 0) ?? ['s', 1];
  return `${seconds / size}${unit}`;
}

/** A duration in seconds; the listing's `0` or `null` means "not set". */
export function duration(options: { readonly min: number; readonly max: number; readonly required?: boolean; readonly description: string }): FieldFactory<number> {
  return field(options, {
    schema: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: DURATION.source }], 'x-message': 'must be a duration: seconds, or a number with s, m, h or d (10m, 1h, 7d)' },
    values: `duration ${formatDuration(options.min)}..${formatDuration(options.max)}`,
    problems: (written) => {
      const seconds = durationSeconds(written as number | string);
      if (seconds >= options.min && seconds <= options.max) return [];
      return [{
        code: 'duration-range',
        message: `must be between ${options.min} s (${formatDuration(options.min)}) and ${options.max} s, got ${JSON.stringify(written)}${typeof written === 'string' ? ` (${seconds} s)` : ''}`,
        at: [],
      }];
    },
    canonical: (written) => durationSeconds(written as number | string),
    fromApi: (listed) => (typeof listed === 'number' && Number.isSafeInteger(listed) && listed > 0 ? listed : undefined),
    written: (seconds) => (seconds % 60 === 0 ? formatDuration(seconds) : seconds),
    format: formatDuration,
  });
}

/**
 * How the service's own client writes a nested point. `two-level` as a rule's
 * `point` (`arbitrary_conditions[].point`, `login_point`: the provider converts
 * both to a two-dimensional array before it sends them); `flat`
 * (`enumerated_parameters.points[].point`). Listings show both flat.
 */
export type PointWire = 'two-level' | 'flat';

/** A point inside a nested value: written `[[post], [json_doc], [hash, password]]`; sent as `wire` says, listed flat. */
export function point(options: { readonly required?: boolean; readonly description: string; readonly example?: readonly Point[]; readonly wire?: PointWire }): FieldFactory<readonly Point[]> {
  const wire = options.wire ?? 'two-level';
  return field<readonly Point[]>(options, {
    schema: { type: 'array', minItems: 1, items: { $ref: '#/$defs/point' } },
    values: 'point',
    problems: (written) => (written as (string | number)[][]).flatMap((element, index) => {
      const read = readPoint(element, 'rule');
      return 'point' in read ? [] : [{ code: read.code, message: read.message, at: [index, ...read.at] }];
    }),
    canonical: (written) => (written as (string | number)[][]).map((element) => canonicalPoint(element)),
    // Flat as listed, or two-level as a create sent it: regroupPoints takes both.
    fromApi: (listed) => (Array.isArray(listed) && listed.length > 0 ? regroupPoints(listed) : undefined),
    toApi: (points) => (wire === 'flat' ? points.flat() : points.map((element) => [...element])),
    written: (points) => points.map((element) => [...element]),
    format: (points) => `[${points.map((element) => `[${element.join(', ')}]`).join(', ')}]`,
  });
}
