/**
 * A rule → the hint API's create and update bodies, with Rampart's owner
 * mark. The inverse of src/live/normalize-hint.ts: what is created here reads
 * back (after the server's normalization) as the same canonical rule.
 */
import type { ApiHintCreate, ApiHintUpdate } from '../../api/records.js';
import { ruleFingerprint } from '../../model/rule-fingerprint.js';
import { withOwnerMark } from '../../model/ownership.js';
import { apiTypeOfRule, fieldValues, kindOf, type Rule } from '../../model/rule.js';
import { sameValue } from '../../rules/field.js';

/** The comment with the owner mark: fingerprint of this declaration, its name (`name`) when known, whether it was adopted. */
function markedComment(rule: Rule, owner: string, name: string | undefined, adopted = false): string {
  // The server rejects an empty comment; the mark alone is never empty.
  return withOwnerMark(rule.comment, { owner, fingerprint: ruleFingerprint(rule), ...(name !== undefined ? { name } : {}), adopted });
}

/**
 * The kind's own fields the rule writes, by API name and in the API's shape;
 * a literal 0 or false is sent as such. A field the rule leaves out is the
 * service's: never sent, never cleared (an update never carries `null`);
 * nor is one whose absence says the same (no extra conditions).
 */
function apiFields(rule: Rule, only?: readonly string[]): Record<string, unknown> {
  const values = fieldValues(rule);
  const out: Record<string, unknown> = {};
  for (const field of kindOf(rule).fields) {
    // A create fills what the service requires and its own client sends when the policy is silent.
    const value = values[field.name] ?? (only ? undefined : field.createDefault);
    if (value === undefined || field.viaType || field.local || (only && !only.includes(field.name))) continue;
    if (field.absentIs !== undefined && sameValue(value, field.absentIs)) continue;
    out[field.api] = field.toApi(value);
  }
  return out;
}

/** `name`: the rule's name in the policies, kept in the mark. */
export function hintCreateRequest(rule: Rule, owner: string, name?: string): ApiHintCreate {
  return {
    ...kindOf(rule).createConstants,
    ...apiFields(rule),
    clientid: rule.client,
    type: apiTypeOfRule(rule),
    action: rule.conditions.map((condition) =>
      condition.type === 'absent'
        ? { point: [...condition.point], type: condition.type }
        : { point: [...condition.point], type: condition.type, value: condition.value ?? '' },
    ),
    validated: false,
    ...(kindOf(rule).point !== 'none' && rule.point.length > 0 ? { point: rule.point.map((point) => [...point]) } : {}),
    comment: markedComment(rule, owner, name),
    variativity_disabled: true,
    // The service's client always sends it; `false` would create the rule disabled.
    active: true,
  };
}

/**
 * An update in place: only the fields that change (YAML names in `fields`),
 * and always the comment, whose mark must carry the new declaration's
 * fingerprint.
 */
export function hintUpdateRequest(rule: Rule, fields: readonly string[], owner: string, name?: string, adopted = false): ApiHintUpdate {
  return { ...apiFields(rule, fields), comment: markedComment(rule, owner, name, adopted) };
}
