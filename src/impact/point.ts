/** A point as one key: flat (a hit lists it flat, a rule holds it two-level), header names upper-cased. */
import type { Point } from '../model/rule.js';

export function pointKeyOf(point: readonly (string | number)[] | readonly Point[]): string {
  const flat = (point as readonly (string | number | Point)[]).flat() as (string | number)[];
  return JSON.stringify(flat.map((part, i) => (flat[i - 1] === 'header' && typeof part === 'string' ? part.toUpperCase() : part)));
}

/** The Host header: every request carries it. */
export const HOST_POINT_KEY = pointKeyOf(['header', 'HOST']);
