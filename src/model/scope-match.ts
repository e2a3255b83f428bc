/**
 * Whether a rule's scope (its conditions) selects a request the service
 * recorded: the one answer `tune` and `--impact` share. Only what a hit
 * records can be tested: the host, the path as the service splits it
 * (request-path.ts) and the application. A scope testing anything else
 * (another header, the query, the method) cannot be evaluated from hits, and
 * `unrecordedCondition` names the condition, so callers say so rather than guess.
 * A `regex` condition runs on RE2's linear-time engine (linear-regex.ts): the
 * recorded values are chosen by whoever sends the request.
 */
import { linearRegex } from './linear-regex.js';
import type { Condition, Point } from './rule.js';
import type { RequestPath } from './request-path.js';

/** What a hit records of its request, as scopes test it. */
export interface RecordedRequest {
  /** The `Host` header (the hit's `domain`). */
  readonly host: string;
  /** Undefined for an attack across paths: no path condition selects it. */
  readonly path: RequestPath | undefined;
  /** The application (`poolid`); -1 is the default one. */
  readonly application: number;
}

/** Whether a hit records the value of this point. */
export function isRecordedPoint(point: Point): boolean {
  const [head, second] = point;
  if (head === 'instance' || head === 'action_name' || head === 'action_ext') return point.length === 1;
  if (head === 'path') return point.length === 2 && typeof second === 'number';
  return head === 'header' && point.length === 2 && typeof second === 'string' && second.toUpperCase() === 'HOST';
}

/** The first condition a request's hits cannot answer (its point is not recorded, or its regex cannot run in linear time), if any. */
export function unrecordedCondition(conditions: readonly Condition[]): Condition | undefined {
  return conditions.find((c) => !isRecordedPoint(c.point) || (c.type === 'regex' && !linearRegex(c.value ?? '').ok));
}

/**
 * Whether every condition holds for the request. A condition on a point hits
 * do not record never holds: check `unrecordedCondition` first.
 */
export function scopeMatches(conditions: readonly Condition[], request: RecordedRequest): boolean {
  return conditions.every((condition) => conditionHolds(condition, request));
}

function conditionHolds(condition: Condition, request: RecordedRequest): boolean {
  const actual = recordedValue(condition.point, request);
  if (actual === NOT_RECORDED) return false;
  switch (condition.type) {
    case 'absent':
      return actual === undefined;
    case 'equal':
      return actual === condition.value;
    case 'iequal':
      return actual !== undefined && actual.toLowerCase() === (condition.value ?? '').toLowerCase();
    case 'regex':
      return actual !== undefined && regexHolds(condition.value ?? '', actual);
  }
}

const NOT_RECORDED = Symbol('not recorded');

function recordedValue(point: Point, request: RecordedRequest): string | undefined | typeof NOT_RECORDED {
  if (!isRecordedPoint(point)) return NOT_RECORDED;
  const [head, index] = point;
  if (head === 'instance') return String(request.application);
  if (head === 'header') return request.host;
  // An attack across paths names no path: nothing about its path can be said.
  if (!request.path) return NOT_RECORDED;
  if (head === 'action_name') return request.path.name;
  if (head === 'action_ext') return request.path.extension;
  return request.path.directories[index as number];
}

/** A pattern RE2 cannot take never holds: check `unrecordedCondition` first. */
function regexHolds(source: string, actual: string): boolean {
  const compiled = linearRegex(source);
  return compiled.ok && compiled.regex.test(actual);
}
