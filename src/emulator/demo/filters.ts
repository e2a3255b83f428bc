/** The attack and vulnerability listing filters: time pairs, incidents, false positives, types. */
import { invalid } from '../envelope.js';
import type { Attack, Vuln } from './data.js';

type Range = readonly [number | null, number | null];

/** `time: [[from, to], ...]`, either end may be null (open). */
export function timeRanges(value: unknown, path: readonly string[]): Range[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid(path, 'must be an array of [from, to] pairs');
  return value.map((pair: unknown) => {
    const ok = Array.isArray(pair) && pair.length === 2 && pair.every((v) => v === null || (typeof v === 'number' && Number.isSafeInteger(v)));
    if (!ok) throw invalid(path, 'must be an array of [from, to] pairs of Unix timestamps or null');
    return pair as unknown as Range;
  });
}

/** Whether [first, last] overlaps any range (a point when first === last). */
export function inRanges(ranges: Range[] | undefined, first: number, last: number): boolean {
  if (!ranges) return true;
  return ranges.some(([from, to]) => (from === null || last >= from) && (to === null || first <= to));
}

function stringList(value: unknown, path: readonly string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string')) throw invalid(path, 'must be strings');
  return list as string[];
}

/** A predicate for the attack filter; throws 400 on a malformed one. */
export function attackFilter(filter: Record<string, unknown>): (attack: Attack) => boolean {
  const ranges = timeRanges(filter.time, ['filter', 'time']);
  const onlyIncidents = '!vulnid' in filter;
  const noIncidents = 'vulnid' in filter;
  for (const key of ['vulnid', '!vulnid']) {
    if (key in filter && filter[key] !== null) throw invalid(['filter', key], 'only null is supported');
  }
  const state = stringList(filter.state, ['filter', 'state']);
  const notState = stringList(filter['!state'], ['filter', '!state']);
  const types = stringList(filter.type, ['filter', 'type']);
  const notTypes = stringList(filter['!type'], ['filter', '!type']);
  return (a) => {
    if (!inRanges(ranges, a.first_time, a.last_time)) return false;
    if (onlyIncidents && a.vulnid === null) return false;
    if (noIncidents && a.vulnid !== null) return false;
    const attackState = a.state ?? 'default';
    if (state && !state.includes(attackState)) return false;
    if (notState?.includes(attackState)) return false;
    if (types && !types.includes(a.type)) return false;
    return !notTypes?.includes(a.type);
  };
}

export function vulnFilter(filter: Record<string, unknown>): (vuln: Vuln) => boolean {
  const ranges = timeRanges(filter.time, ['filter', 'time']);
  const noTestRuns = 'testrun_id' in filter && filter.testrun_id === null;
  const validated = filter.validated;
  if (validated !== undefined && validated !== null && typeof validated !== 'boolean') {
    throw invalid(['filter', 'validated'], 'must be a boolean');
  }
  return (v) => {
    if (!inRanges(ranges, v.time, v.time)) return false;
    if (noTestRuns && v.testrun_id !== null) return false;
    if (validated === true && v.status !== 'active') return false;
    return !(validated === false && v.status === 'active');
  };
}
