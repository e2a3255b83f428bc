/**
 * A rule → the hint API's create and update bodies, with Rampart's owner
 * mark. The inverse of src/live/normalize-hint.ts: what is created here reads
 * back (after the server's normalization) as the same canonical rule.
 */
import type { ApiHintCreate, ApiHintUpdate } from '../../api/records.js';
import { ruleFingerprint } from '../../model/rule-fingerprint.js';
import { withOwnerMark } from '../../model/ownership.js';
import { WRITTEN_COMMON_FIELDS, VARIATIVITY_DISABLED } from '../../model/rule-common.js';
import { apiTypeOfRule, fieldValues, kindOf, type LiveRule, type Rule } from '../../model/rule.js';
import { sameValue } from '../../rules/field.js';

/** The comment with the owner mark: fingerprint of this declaration, its name (`name`) when known, whether it was adopted. */
function markedComment(rule: Rule, owner: string, name: string | undefined, adopted = false): string {
  // The server rejects an empty comment; the mark alone is never empty.
  return withOwnerMark(rule.comment, { owner, fingerprint: ruleFingerprint(rule), ...(name !== undefined ? { name } : {}), adopted });
}

/**
 * The kind's own fields a create sends, by API name and in the API's shape;
 * a literal 0 or false is sent as such. A field the rule leaves out is the
 * service's: not sent (the service fills it), unless the service requires
 * it or its own client always sends it (`createDefault`); nor is one whose
 * absence says the same (no extra conditions).
 */
function createFields(rule: Rule): Record<string, unknown> {
  const values = fieldValues(rule);
  const out: Record<string, unknown> = {};
  for (const field of kindOf(rule).fields) {
    const value = values[field.name] ?? field.createDefault;
    if (value === undefined || field.viaType || field.local) continue;
    if (field.absentIs !== undefined && sameValue(value, field.absentIs)) continue;
    out[field.api] = field.toApi(value);
  }
  return out;
}

/** `name`: the rule's name in the policies, kept in the mark. */
export function hintCreateRequest(rule: Rule, owner: string, name?: string): ApiHintCreate {
  return {
    ...kindOf(rule).createConstants,
    ...createFields(rule),
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
    variativity_disabled: VARIATIVITY_DISABLED,
    // The service's client always sends it; `false` would create the rule disabled.
    active: WRITTEN_COMMON_FIELDS.active,
  };
}

/**
 * An update in place: the whole mutable surface, as the service's own
 * client sends it (its provider's `resourcerule.Update` and update
 * customizers), because the service resets a field the body leaves out:
 * the five fields every rule has, and every field the kind's update takes,
 * changed or not. Each is the declared value where the policy writes it and
 * the stored one (`live`) where it is silent, so an update never changes a
 * field the policy does not name. The comment's mark carries the new
 * declaration's fingerprint.
 */
export function hintUpdateRequest(rule: Rule, live: LiveRule, owner: string, name?: string, adopted = false): ApiHintUpdate {
  const declared = fieldValues(rule);
  const stored = fieldValues(live);
  const common = live.common ?? WRITTEN_COMMON_FIELDS;
  const out: Record<string, unknown> = {
    variativity_disabled: VARIATIVITY_DISABLED,
    comment: markedComment(rule, owner, name, adopted),
    title: common.title,
    active: common.active,
    set: common.set,
  };
  for (const field of kindOf(rule).fields) {
    const value = field.sentInUpdates ? declared[field.name] ?? stored[field.name] : undefined;
    if (value !== undefined) out[field.api] = field.toApi(value);
  }
  return out as ApiHintUpdate;
}
