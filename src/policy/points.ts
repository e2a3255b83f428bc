/** Point elements in policy files, checked against the grammar in grammar/point-grammar.ts. */
import type { Point } from '../model/rule.js';
import { readPoint, type PointKind, type PointSpec } from '../grammar/point-grammar.js';
import type { Reporter } from './reporter.js';
import type { Path } from './source-map.js';

/** Checks one point element; returns its canonical form, or undefined after reporting. */
export function checkPoint(spec: PointSpec, kind: PointKind, path: Path, report: Reporter): Point | undefined {
  const read = readPoint(spec, kind);
  if ('point' in read) return read.point;
  report.error(read.code, read.message, [...path, ...read.at]);
  return undefined;
}

