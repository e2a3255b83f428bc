/**
 * Server-side normalization of rule conditions and points, as the real service
 * does it (see shared api-notes): header names upper-cased, `iequal` values
 * lower-cased, instance ids as strings with type `equal`, path indexes as
 * integers, `absent` values null, and condition order not kept.
 */
import { invalid } from '../envelope.js';
import { isRecord } from '../validate.js';
import type { ConditionRecord } from '../store.js';
import { elementArgument } from './points.js';
import { regexCompiles } from './regex.js';

export const MAX_CONDITIONS = 60;

export const CONDITION_TYPES = ['equal', 'iequal', 'regex', 'absent'] as const;

/** The points a condition may test; whether each takes an argument comes from the point grammar. */
const CONDITION_POINTS: readonly string[] = [
  'instance', 'method', 'scheme', 'proto', 'uri', 'action_name', 'action_ext', 'path', 'header', 'get',
];

export interface ConditionRewrites {
  /** The undocumented-rewrite quirk: `[method]` values stored upper-cased. */
  readonly upperCaseMethod: boolean;
}

export function normalizeConditions(value: unknown, rewrites: ConditionRewrites = { upperCaseMethod: false }): ConditionRecord[] {
  if (value === undefined || value === null) throw invalid('action', "can't be blank");
  if (!Array.isArray(value)) throw invalid('action', 'must be an array of conditions');
  if (value.length > MAX_CONDITIONS) throw invalid('action', `must have at most ${MAX_CONDITIONS} conditions`);
  return scramble(value.map((item, i) => normalizeCondition(item, i, rewrites)));
}

function normalizeCondition(item: unknown, i: number, rewrites: ConditionRewrites): ConditionRecord {
  const fail = (message: string) => invalid('action', `condition ${i}: ${message}`);
  if (!isRecord(item)) throw fail('must be an object with point, type and value');
  const point = normalizeConditionPoint(item.point, fail);
  const type = item.type;
  if (typeof type !== 'string' || !(CONDITION_TYPES as readonly string[]).includes(type)) {
    throw fail(`type must be one of: ${CONDITION_TYPES.join(', ')}`);
  }
  if (type === 'absent') return { point, type, value: null };
  const raw = item.value;
  if (point[0] === 'instance') {
    // Application ids: a number or a numeric string, always read back as a string with type equal.
    const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id) || id < 0) throw fail('instance value must be a numeric application id');
    if (type !== 'equal' && type !== 'iequal') throw fail('instance takes type equal');
    return { point, type: 'equal', value: String(id) };
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') throw fail("value can't be blank");
  const text = String(raw);
  if (type === 'regex' && !regexCompiles(text)) throw fail('value is not a valid regular expression');
  // The service's rules documentation: EQUAL is restricted for the HOST header and replaced with IEQUAL.
  const stored = type === 'equal' && point[0] === 'header' && point[1] === 'HOST' ? 'iequal' : type;
  if (stored === 'iequal') return { point, type: stored, value: text.toLowerCase() };
  if (rewrites.upperCaseMethod && point[0] === 'method' && stored === 'equal') return { point, type: stored, value: text.toUpperCase() };
  return { point, type: stored, value: text };
}

function normalizeConditionPoint(value: unknown, fail: (m: string) => Error): (string | number)[] {
  if (!Array.isArray(value) || value.length === 0) throw fail('point must be a non-empty array');
  const [name, arg, ...rest] = value as unknown[];
  if (typeof name !== 'string' || !CONDITION_POINTS.includes(name)) {
    throw fail(`point must start with one of: ${CONDITION_POINTS.join(', ')}`);
  }
  const kind = elementArgument(name);
  if (rest.length > 0 || (kind === 'none' && arg !== undefined) || (kind !== 'none' && arg === undefined)) {
    throw fail(`point ${name} ${kind === 'none' ? 'takes no argument' : 'takes exactly one argument'}`);
  }
  if (kind === 'none') return [name];
  if (kind === 'index') {
    const index = typeof arg === 'string' && /^\d+$/.test(arg) ? Number(arg) : arg;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
      throw fail('path index must be a non-negative integer');
    }
    return [name, index];
  }
  if (typeof arg !== 'string' || arg === '') throw fail(`point ${name} needs a name`);
  return [name, name === 'header' ? arg.toUpperCase() : arg];
}

export function conditionKey(condition: ConditionRecord): string {
  return JSON.stringify([condition.point, condition.type, condition.value]);
}

/** Identity of a condition set within an account: sorted content, so order never matters. */
export function conditionSetKey(clientid: number, conditions: readonly ConditionRecord[]): string {
  return JSON.stringify([clientid, conditions.map(conditionKey).sort()]);
}

/**
 * The service does not keep condition order. Neither the sent order nor a
 * plain sort is kept either, so clients cannot get away with comparing lists:
 * order by a hash of the content (deterministic, but arbitrary).
 */
function scramble(conditions: ConditionRecord[]): ConditionRecord[] {
  const keyed = conditions.map((c) => ({ c, key: conditionKey(c), hash: fnv1a(conditionKey(c)) }));
  keyed.sort((a, b) => a.hash - b.hash || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.c);
}

export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
