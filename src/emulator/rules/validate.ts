/** Validation of `POST /v1/objects/hint/create`: what the service refuses, with its 400 shape. */
import { MANAGED_RULE_TYPES } from '../../model/rule.js';
import { invalid } from '../envelope.js';
import type { HintRecord } from '../store.js';
import { optionalBool, requirePositiveInt, requireRecord, requireString } from '../validate.js';
import { compiles, flattenPoint, normalizeConditions, type ConditionRewrites } from './conditions.js';

/** Types the emulator accepts: the managed ones and real foreign ones (hidden false-positive rules etc.). */
export const HINT_TYPES: readonly string[] = [
  ...MANAGED_RULE_TYPES,
  'disable_stamp', 'disable_attack_type', 'experimental_regex', 'set_response_header',
  'parser_state', 'binary_data', 'sensitive_data', 'uploads', 'attack_rechecker',
  'rate_limit', 'brute_counter', 'dirbust_counter', 'bola_counter',
];

export const SERVICE_MODES = ['default', 'off', 'monitoring', 'block', 'safe_blocking'] as const;

/** Types whose `point` and `attack_type` are required. */
const POINTED_TYPES = new Set(['vpatch', 'regex', 'experimental_regex']);
const REGEX_TYPES = new Set(['regex', 'experimental_regex']);

const KNOWN_FIELDS = new Set([
  'clientid', 'type', 'action', 'point', 'attack_type', 'regex', 'mode', 'comment', 'validated',
  'variativity_disabled', 'id', 'actionid', 'regex_id', 'active', 'system', 'create_time', 'updated_at',
]);

/** A validated create request: the fields a client sends of a stored hint. */
export type HintDraft = Pick<
  HintRecord,
  'clientid' | 'type' | 'action' | 'point' | 'attack_type' | 'regex' | 'mode' | 'comment' | 'validated'
  | 'variativity_disabled'
> & {
  /** Fields of types the emulator does not model (`stamp`, `name`, ...), kept as sent. */
  extra: Record<string, unknown>;
};

export function validateHintCreate(input: unknown, rewrites?: ConditionRewrites): HintDraft {
  const body = requireRecord(input, 'body');
  const clientid = requirePositiveInt(body.clientid, 'clientid');
  const type = requireString(body.type, 'type');
  if (!HINT_TYPES.includes(type)) throw invalid('type', 'is not a known rule type');
  const action = normalizeConditions(body.action, rewrites);

  const pointed = POINTED_TYPES.has(type);
  const point = pointed || body.point !== undefined ? flattenPoint(body.point) : [];
  const attackType = pointed ? requireString(body.attack_type, 'attack_type') : optionalText(body.attack_type, 'attack_type');
  if (attackType !== null && !/^[a-z][a-z0-9_]*$/.test(attackType)) throw invalid('attack_type', 'is invalid');

  let regex: string | null = null;
  if (REGEX_TYPES.has(type)) {
    regex = requireString(body.regex, 'regex');
    if (!compiles(regex)) throw invalid('regex', 'is not a valid regular expression');
  } else if (body.regex !== undefined) {
    regex = optionalText(body.regex, 'regex');
  }

  let mode: string | null = null;
  if (type === 'service_mode') {
    mode = requireString(body.mode, 'mode');
    if (!(SERVICE_MODES as readonly string[]).includes(mode)) {
      throw invalid('mode', `must be one of: ${SERVICE_MODES.join(', ')}`);
    }
  }

  // The real service refuses an empty comment; clients must omit it instead.
  if (body.comment === '') throw invalid('comment', "can't be blank");
  const comment = optionalText(body.comment, 'comment');
  const validated = optionalBool(body.validated, 'validated', false);
  const variativityDisabled = optionalBool(body.variativity_disabled, 'variativity_disabled', false);

  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!KNOWN_FIELDS.has(key)) extra[key] = value;
  return {
    clientid, type, action, point, attack_type: attackType, regex, mode, comment, validated,
    variativity_disabled: variativityDisabled, extra,
  };
}

function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  return value;
}
