/**
 * Validation of `PUT /v3/hint/{id}`, and what the service does with a body
 * that leaves fields out. The service's own clients send the whole mutable
 * surface on every update: the five fields every type has (`comment`,
 * `title`, `active`, `set`, `variativity_disabled`) and every field of the
 * type's "updatable" column (the provider's `resourcerule.Update` and its
 * update customizers). Its API probe saw why: a partial body "caused the API
 * to silently drop most fields". So a mutable field the body leaves out is
 * reset to the service's default (or dropped, where it has none), and the
 * answer shows it. Identity fields (`type`, `clientid`, `action`, `point`)
 * never change: changing them means a new rule.
 */
import { forbidden, HttpError, invalid } from '../envelope.js';
import type { HintRecord } from '../store.js';
import { requireBool, requireRecord } from '../validate.js';
import { ruleKind } from './catalogue.js';
import { checkField } from './fields.js';
import { checkComment, optionalText, type RuleContext } from './validate.js';

const IDENTITY_FIELDS: ReadonlySet<string> = new Set(['type', 'clientid', 'action', 'point']);
/** Set by the service or fixed at creation; never taken by an update. */
const FIXED_FIELDS: ReadonlySet<string> = new Set(['id', 'actionid', 'regex_id', 'validated', 'system', 'create_time', 'updated_at']);

/**
 * The five fields every type can write, and what an update that leaves one
 * out stores: what a create that leaves it out stores (validate.ts).
 */
export const COMMON_UPDATE_DEFAULTS: Readonly<Record<string, unknown>> = {
  comment: null,
  title: null,
  set: null,
  active: true,
  variativity_disabled: false,
};

/** The fields to store: those sent, and the mutable fields left out reset to the service's default (`undefined`: dropped). */
export function validateHintUpdate(current: HintRecord, input: unknown, context: RuleContext): Record<string, unknown> {
  const body = requireRecord(input, 'body');
  if (Object.keys(body).length === 0) throw invalid('body', "can't be blank");
  const kind = ruleKind(current.type);
  if (kind?.extendedToken && !context.extendedToken) throw forbidden();
  // Not a missing right: the service's 403 names the object (api-notes, fourth pass).
  if (kind?.counter) throw new HttpError(403, { base: { error: 'cannot be updated' } });
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'comment') {
      if (value === null || value === undefined) throw invalid('comment', "can't be blank");
      patch.comment = checkComment(value);
    } else if (name === 'active' || name === 'variativity_disabled') {
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
  for (const [name, fallback] of Object.entries(COMMON_UPDATE_DEFAULTS)) if (!Object.hasOwn(body, name)) patch[name] = fallback;
  for (const name of kind?.updatable ?? []) if (!Object.hasOwn(body, name)) patch[name] = kind?.fields[name]?.default;
  kind?.crossCheck?.({ ...current, ...patch });
  return patch;
}
