/**
 * Validation of `PUT /v3/hint/{id}`: the body holds only the fields to change,
 * from the type's "updatable" column plus `comment`. Identity fields (`type`,
 * `clientid`, `action`, `point`) never change: changing them means a new rule.
 */
import { forbidden, invalid } from '../envelope.js';
import type { HintRecord } from '../store.js';
import { requireBool, requireRecord } from '../validate.js';
import { ruleKind } from './catalogue.js';
import { checkField } from './fields.js';
import { checkComment, optionalText, type RuleContext } from './validate.js';

const IDENTITY_FIELDS: ReadonlySet<string> = new Set(['type', 'clientid', 'action', 'point']);
/** Set by the service or fixed at creation; never taken by an update. */
const FIXED_FIELDS: ReadonlySet<string> = new Set(['id', 'actionid', 'regex_id', 'validated', 'system', 'create_time', 'updated_at']);

/** The fields to change, as they will be stored. */
export function validateHintUpdate(current: HintRecord, input: unknown, context: RuleContext): Record<string, unknown> {
  const body = requireRecord(input, 'body');
  if (Object.keys(body).length === 0) throw invalid('body', "can't be blank");
  const kind = ruleKind(current.type);
  if (kind?.extendedToken && !context.extendedToken) throw forbidden();
  if (kind?.counter) throw invalid('id', 'is a counter: it cannot be changed');
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'comment') {
      if (value === null || value === undefined) throw invalid('comment', "can't be blank");
      patch.comment = checkComment(value);
    } else if (name === 'active' || name === 'variativity_disabled') {
      // Two of the five fields every type can write in place (with comment, title and set).
      patch[name] = requireBool(value, name);
    } else if (name === 'title' || name === 'set') {
      patch[name] = optionalText(value, name);
    } else if (IDENTITY_FIELDS.has(name) || FIXED_FIELDS.has(name)) {
      throw invalid(name, "can't be changed");
    } else if (!kind) {
      patch[name] = value; // a type outside the catalogue: stored as sent, as on create
    } else if (kind.updatable.includes(name)) {
      patch[name] = checkField(kind.fields[name] ?? { kind: 'text' }, name, value);
    } else if (Object.hasOwn(kind.fields, name)) {
      throw invalid(name, "can't be changed");
    } else {
      throw invalid(name, `is not a field of ${current.type} rules`);
    }
  }
  kind?.crossCheck?.({ ...current, ...patch });
  return patch;
}
