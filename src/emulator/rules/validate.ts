/**
 * Validation of `POST /v1/objects/hint/create` from the rule catalogue: what the
 * service refuses, with its 400 shape (`{"<field>":{"error":"..."}}`).
 */
import { forbidden, invalid } from '../envelope.js';
import type { HintRecord } from '../store.js';
import { optionalBool, requirePositiveInt, requireRecord, requireString } from '../validate.js';
import { ruleKind, isKnownType, type RuleKind } from './catalogue.js';
import { normalizeConditions, type ConditionRewrites } from './conditions.js';
import { checkField, isMissing } from './fields.js';
import { normalizeRulePoint } from './points.js';

/**
 * Fields every create takes, whatever the type: the scope, and the five every
 * type can write (`comment`, `title`, `active`, `set`, `variativity_disabled`).
 */
const COMMON_FIELDS: ReadonlySet<string> = new Set(['clientid', 'type', 'action', 'point', 'comment', 'validated', 'variativity_disabled', 'active', 'title', 'set']);
/** Fields the service sets itself; sent on a create of an unchecked type, they are ignored. */
const OUTPUT_FIELDS: ReadonlySet<string> = new Set(['id', 'actionid', 'system', 'create_time', 'updated_at']);

export interface RuleContext {
  readonly rewrites: ConditionRewrites;
  /** Whether the token is an extended admin token (needed by some types, e.g. `disable_stamp`). */
  readonly extendedToken: boolean;
  /** Whether `regexId` is the `regex_id` of a live regex rule of the account. */
  regexExists(clientid: number, regexId: number): boolean;
}

/** A validated create request: the common fields, and the type's own as they will be stored. */
export interface HintDraft extends Pick<HintRecord, 'clientid' | 'type' | 'action' | 'point' | 'comment' | 'validated' | 'variativity_disabled' | 'active' | 'title' | 'set'> {
  /** Type-specific fields with the service's defaults applied (`attack_type`, `mode`, `rate`, ...). */
  fields: Record<string, unknown>;
}

export function validateHintCreate(input: unknown, context: RuleContext): HintDraft {
  const body = requireRecord(input, 'body');
  const clientid = requirePositiveInt(body.clientid, 'clientid');
  const type = requireString(body.type, 'type');
  if (!isKnownType(type)) throw invalid('type', 'is not a known rule type');
  const kind = ruleKind(type);
  if (kind?.extendedToken && !context.extendedToken) throw forbidden();
  const action = normalizeConditions(body.action, context.rewrites);
  const comment = checkComment(body.comment);
  const validated = optionalBool(body.validated, 'validated', false);
  const variativityDisabled = optionalBool(body.variativity_disabled, 'variativity_disabled', false);
  // `active: false` creates a disabled rule; the service lists `title` and `set` as null when none is given.
  const active = optionalBool(body.active, 'active', true);
  const common = {
    clientid, type, action, comment, validated, variativity_disabled: variativityDisabled, active,
    title: optionalText(body.title, 'title'), set: optionalText(body.set, 'set'),
  };
  if (!kind) return { ...common, ...uncheckedFields(body) };

  const point = checkPoint(kind, body.point);
  const fields: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(kind.fields)) {
    const value = body[name];
    if (!isMissing(value)) fields[name] = checkField(spec, name, value);
    else if (spec.required || value === '') throw invalid(name, "can't be blank");
    else if (spec.default !== undefined) fields[name] = spec.default;
  }
  for (const name of Object.keys(body)) {
    if (!COMMON_FIELDS.has(name) && !Object.hasOwn(kind.fields, name)) throw invalid(name, `is not a field of ${type} rules`);
  }
  kind.crossCheck?.(fields);
  if (typeof fields.regex_id === 'number' && !context.regexExists(clientid, fields.regex_id)) {
    throw invalid('regex_id', 'is not a regex rule of this account');
  }
  return { ...common, point, fields };
}

/** `title` and `set`: free text or nothing. */
export function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  return value;
}

/** The service refuses an empty comment: clients must omit it instead. */
export function checkComment(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (value === '') throw invalid('comment', "can't be blank");
  if (typeof value !== 'string') throw invalid('comment', 'must be a string');
  return value;
}

function checkPoint(kind: RuleKind, value: unknown): (string | number)[] {
  if (kind.point === 'none') {
    if (value !== undefined) throw invalid('point', 'is not taken by this rule type');
    return [];
  }
  if (kind.point === 'optional' && (value === undefined || value === null)) return [];
  return normalizeRulePoint(value);
}

/** Types outside the catalogue: a `point` must still parse; the rest is stored as sent. */
function uncheckedFields(body: Record<string, unknown>): { point: (string | number)[]; fields: Record<string, unknown> } {
  const point = body.point === undefined || body.point === null ? [] : normalizeRulePoint(body.point);
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) if (!COMMON_FIELDS.has(name) && !OUTPUT_FIELDS.has(name)) fields[name] = value;
  return { point, fields };
}
