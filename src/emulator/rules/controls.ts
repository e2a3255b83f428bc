/**
 * The abuse mitigation controls (`brute`, `bola`, `enum`, `forced_browsing`,
 * `rate_limit_enum`) as the service checks and stores them, from its notes:
 * `threshold` and `reaction` objects, `enumerated_parameters` in one of two
 * modes, condition lists, points inside nested values sent two-level and
 * stored flat (but `enumerated_parameters` points, sent flat too). The emulator's own reading: nothing here comes from the client.
 */
import { invalid } from '../envelope.js';
import { checkInt, nested, oneOf, type FieldSpec } from './fields.js';
import { normalizeNestedPoint } from './points.js';

type Path = readonly string[];

/** A reaction lasts 10 minutes to 10 years, in seconds. */
const REACTION_RANGE = { min: 600, max: 315_569_520 } as const;
const REACTION_KEYS = ['block_by_session', 'block_by_ip', 'graylist_by_ip'] as const;
/** Which reaction keys each `mode` takes; any other set key is "reaction does not match mode". */
const REACTIONS_OF_MODE: Readonly<Record<string, readonly string[]>> = {
  block: ['block_by_session', 'block_by_ip'],
  monitoring: ['graylist_by_ip'],
};
const ADVANCED_FIELDS = [
  'ip', 'method', 'user_agent', 'domain', 'uri', 'status_code', 'request_time', 'request_size', 'response_size', 'attack_type', 'blocked',
];
const OPERATORS = ['eq', 'ne', 'imatch', 'notimatch', 'match', 'notmatch', 'lt', 'gt', 'le', 'ge'];

/** The read-only `attack_type` each control is listed with. */
export const CONTROL_ATTACK_TYPES: Readonly<Record<string, string>> = {
  brute: 'brute', bola: 'bola', enum: 'enum', forced_browsing: 'dirbust', rate_limit_enum: 'rate_limit',
};

function record(value: unknown, path: Path): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'must be an object');
  return value as Record<string, unknown>;
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], path: Path): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw invalid([...path, key], 'is not allowed');
}

function strings(value: unknown, path: Path, { allowEmptyString = false } = {}): string[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid(path, "can't be blank");
  if (!value.every((v) => typeof v === 'string' && (allowEmptyString || v !== ''))) throw invalid(path, 'must be strings');
  return [...(value as string[])];
}

function boolOr(value: unknown, fallback: boolean, path: Path): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalid(path, 'must be a boolean');
  return value;
}

function threshold(value: unknown, field: string): unknown {
  const object = record(value, [field]);
  onlyKeys(object, ['count', 'period'], [field]);
  return {
    count: checkInt([field, 'count'], object.count ?? missing([field, 'count']), { min: 1 }),
    period: checkInt([field, 'period'], object.period ?? missing([field, 'period']), { min: 1 }),
  };
}

function missing(path: Path): never {
  throw invalid(path, "can't be blank");
}

/** Every key is stored: one left out, `null` or `0` is "not set" and listed as 0. */
function reaction(value: unknown, field: string): unknown {
  const object = record(value, [field]);
  onlyKeys(object, REACTION_KEYS, [field]);
  const stored: Record<string, number> = {};
  for (const key of REACTION_KEYS) {
    const seconds = object[key];
    stored[key] = seconds === undefined || seconds === null || seconds === 0 ? 0 : checkInt([field, key], seconds, REACTION_RANGE);
  }
  if (Object.values(stored).every((seconds) => seconds === 0)) throw invalid(field, "can't be blank");
  return stored;
}

function exactPoints(value: unknown, path: Path): unknown {
  if (!Array.isArray(value) || value.length === 0) throw invalid(path, "can't be blank");
  return value.map((entry, index) => {
    const at = [...path, String(index)];
    const object = record(entry, at);
    onlyKeys(object, ['point', 'sensitive'], at);
    return { point: normalizeNestedPoint(object.point, 'flat', path[0] ?? 'enumerated_parameters', at.join('.') + '.point'), sensitive: boolOr(object.sensitive, false, [...at, 'sensitive']) };
  });
}

/** `exact` lists points; `regexp` matches names and values. The two modes' keys never mix. */
function enumeratedParameters(value: unknown, field: string): unknown {
  const object = record(value, [field]);
  if (object.mode === 'exact') {
    onlyKeys(object, ['mode', 'points'], [field]);
    return { mode: 'exact', points: exactPoints(object.points, [field, 'points']) };
  }
  if (object.mode === 'regexp') {
    onlyKeys(object, ['mode', 'name_regexps', 'value_regexps', 'additional_parameters', 'plain_parameters'], [field]);
    return {
      mode: 'regexp',
      name_regexps: strings(object.name_regexps, [field, 'name_regexps'], { allowEmptyString: true }),
      value_regexps: strings(object.value_regexps, [field, 'value_regexps'], { allowEmptyString: true }),
      // The service fills `true` when these are left out (the notes): clients are to send both.
      additional_parameters: boolOr(object.additional_parameters, true, [field, 'additional_parameters']),
      plain_parameters: boolOr(object.plain_parameters, true, [field, 'plain_parameters']),
    };
  }
  throw invalid([field, 'mode'], 'must be one of: exact, regexp');
}

function conditionList(subject: 'field' | 'point') {
  return (value: unknown, field: string): unknown => {
    if (!Array.isArray(value)) throw invalid(field, 'must be a list');
    return value.map((entry, index) => {
      const at = [field, String(index)];
      const object = record(entry, at);
      onlyKeys(object, [subject, 'operator', 'value'], at);
      const head = subject === 'field'
        ? { field: enumValue(object.field, ADVANCED_FIELDS, [...at, 'field']) }
        : { point: normalizeNestedPoint(object.point, 'two-level', field, at.join('.') + '.point') };
      return { ...head, operator: enumValue(object.operator, OPERATORS, [...at, 'operator']), value: strings(object.value, [...at, 'value']) };
    });
  };
}

function enumValue(value: unknown, values: readonly string[], path: Path): string {
  if (typeof value !== 'string' || !values.includes(value)) throw invalid(path, `must be one of: ${values.join(', ')}`);
  return value;
}

const required = { required: true } as const;

/** The fields every control takes. */
export const CONTROL_FIELDS: Readonly<Record<string, FieldSpec>> = {
  mode: oneOf(['monitoring', 'block'], required),
  threshold: nested(threshold, required),
  reaction: nested(reaction, required),
  advanced_conditions: nested(conditionList('field')),
  arbitrary_conditions: nested(conditionList('point')),
};

/** brute, bola and enum also watch parameters, and must say which ("can't be blank"). */
export const ENUMERATED_PARAMETERS: FieldSpec = nested(enumeratedParameters, required);

/** A record's reaction keys must be those its mode takes (checked on create and after an update). */
export function checkReactionMatchesMode(fields: Readonly<Record<string, unknown>>): void {
  const allowed = REACTIONS_OF_MODE[String(fields.mode)] ?? [];
  const set = Object.entries((fields.reaction ?? {}) as Record<string, number>).filter(([, seconds]) => seconds !== 0);
  if (set.some(([key]) => !allowed.includes(key))) throw invalid('reaction', 'reaction does not match mode');
}
