/**
 * A listed hint → a LiveRule in the canonical model, or undefined for rule
 * types Rampart does not manage and for the service's own `system` rules
 * (those are never read further, never touched, never counted). Each field is
 * read as its kind declares it (src/rules/), in canonical form; what the
 * service filled in stays as listed (a declaration that leaves a field out
 * never compares it).
 */
import type { ApiHint } from '../api/records.js';
import { regroupPoints } from '../grammar/points.js';
import { canonicalCondition } from '../model/canonical.js';
import { readOwnerMark } from '../model/ownership.js';
import { storedCommonFields } from '../model/rule-common.js';
import { sortConditions, type LiveRule, type Point } from '../model/rule.js';
import type { FieldValue } from '../rules/field.js';
import { kindOfApiType } from '../rules/registry.js';
import { Interner } from '../model/interner.js';

const NO_POINT: readonly Point[] = [];

/** `intern` shares repeated values between the rules of one read (interner.ts). */
export function liveRuleFromHint(hint: ApiHint, intern: Interner = new Interner()): LiveRule | undefined {
  const found = hint.system === true ? undefined : kindOfApiType(hint.type);
  if (!found) return undefined;
  const { kind } = found;
  const record = hint as unknown as Readonly<Record<string, unknown>>;
  const fields: Record<string, FieldValue> = {};
  for (const field of kind.fields) {
    if (field.local) continue;
    const read = (field.viaType ? found.fields[field.name] : field.fromApi(record[field.api])) ?? field.absentIs;
    if (read !== undefined) fields[field.name] = typeof read === 'string' ? intern.string(read) : read;
  }
  const mark = readOwnerMark(hint.comment);
  const { fingerprint, name, adopted } = mark;
  const comment = intern.string(mark.text);
  const owner = intern.string(mark.owner);
  const conditions = sortConditions((hint.action ?? []).map((condition) => intern.condition(canonicalCondition(condition))));
  // Every member written, `undefined` where the rule has none: one shape, its members in the object itself
  // (optional members spread in went to a separate array, 2 MB at 50,000 rules). JSON and the
  // comparisons leave `undefined` members out.
  return {
    id: hint.id,
    client: hint.clientid,
    kind: kind.yaml,
    // Equal to those of one of the last rules of its kind often (a mode, `attack: any`): shared, as they are never written.
    fields: intern.recent(kind, fields),
    conditions,
    point: kind.point === 'none' ? NO_POINT : intern.pointList(regroupPoints(hint.point ?? [])),
    regexId: typeof hint.regex_id === 'number' ? hint.regex_id : undefined,
    comment,
    owner,
    fingerprint,
    name,
    adopted: adopted ? true : undefined,
    common: storedCommonFields(record),
  } as LiveRule;
}
