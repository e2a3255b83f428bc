/**
 * Credential-stuffing detection (`credentials_regex`, `credentials_point`) as
 * the service checks it: where a login is found, by a regex over parameter
 * names or by a point. `cred_stuff_type` says which list of the account's
 * credential-stuffing configuration the rule belongs to.
 */
import { invalid } from '../envelope.js';
import { bool, nested, oneOf, regex, type FieldSpec } from './fields.js';
import { normalizeNestedPoint } from './points.js';
import { regexCompiles } from './regex.js';

/** The lists of `GET /v4/clients/{id}/credential_stuffing/configs`; a rule that names none is `custom`. */
export const CREDENTIAL_LISTS = ['default', 'custom'] as const;

const MAX_LOGIN_REGEX = 4096;

function loginRegex(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  if (value.length > MAX_LOGIN_REGEX) throw invalid(field, `is too long (maximum is ${MAX_LOGIN_REGEX} characters)`);
  if (!regexCompiles(value)) throw invalid(field, 'is not a valid regular expression');
  return value;
}

const required = { required: true } as const;
const credStuffType = oneOf(CREDENTIAL_LISTS, { default: 'custom' });

export const credentialFields: Readonly<Record<'regex' | 'point', Readonly<Record<string, FieldSpec>>>> = {
  regex: {
    regex: regex(required),
    login_regex: nested(loginRegex, required),
    case_sensitive: bool(required),
    cred_stuff_type: credStuffType,
  },
  point: {
    // Sent two-level like a rule's point, stored flat.
    login_point: nested((value, field) => normalizeNestedPoint(value, 'two-level', field), required),
    cred_stuff_type: credStuffType,
  },
};
