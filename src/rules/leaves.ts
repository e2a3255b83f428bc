/**
 * Leaf values of nested fields that need more than a scalar: a duration
 * (`600`, `10m`, `1h`, `7d`, canonical in seconds) and a point (two-level in
 * YAML as everywhere, flat in the API).
 */
import { canonicalPoint, regroupPoints } from '../model/canonical.js';
import type { Point } from '../model/rule.js';
import { readPoint } from '../model/point-grammar.js';
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

/** A point inside a nested value: written `[[post], [json_doc], [hash, password]]`, sent and listed flat. */
export function point(options: { readonly required?: boolean; readonly description: string; readonly example?: readonly Point[] }): FieldFactory<readonly Point[]> {
  return field<readonly Point[]>(options, {
    schema: { type: 'array', minItems: 1, items: { $ref: '#/$defs/point' } },
    values: 'point',
    problems: (written) => (written as (string | number)[][]).flatMap((element, index) => {
      const read = readPoint(element, 'rule');
      return 'point' in read ? [] : [{ code: read.code, message: read.message, at: [index, ...read.at] }];
    }),
    canonical: (written) => (written as (string | number)[][]).map((element) => canonicalPoint(element)),
    fromApi: (listed) => (Array.isArray(listed) && listed.length > 0 ? regroupPoints(listed) : undefined),
    toApi: (points) => points.flat(),
    written: (points) => points.map((element) => [...element]),
    format: (points) => `[${points.map((element) => `[${element.join(', ')}]`).join(', ')}]`,
  });
}
