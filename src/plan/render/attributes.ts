/**
 * Every attribute of a rule or IP object as a reviewer reads it, by its
 * policy-file name, and which of them differ between two versions. The rule
 * fields come from the kind registry, so a new kind shows its fields with no
 * change here.
 */
import { NEVER_EXPIRES } from '../../model/ip.js';
import { formatCondition } from '../../model/rule-rewrites.js';
import { formatPoint } from '../../model/rule-rewrites.js';
import type { FieldValue } from '../../rules/field.js';
import { isKindName, ruleKind } from '../../rules/registry.js';
import type { PlanIpObject, PlanRule } from '../types.js';

export interface Attribute {
  readonly name: string;
  /** The value (the new one when it changes). */
  readonly value: string;
  /** Present when the value changes: what it was. */
  readonly old?: string;
}

export const NONE = '(none)';

/**
 * Rule attributes: `when` (the application is shown apart), `point`, the
 * kind's fields in registry order (a nested value key by key:
 * `threshold.count`), `comment`. For the old side of a change, `declared` is
 * the new rule: a field it leaves out is the service's and is not shown.
 */
export function ruleAttributes(rule: PlanRule, declared?: PlanRule): Map<string, string> {
  const out = new Map<string, string>();
  const when = rule.conditions.filter((c) => !(c.point.length === 1 && c.point[0] === 'instance'));
  if (when.length > 0) out.set('when', when.map((c) => formatCondition({ point: c.point, type: c.match, value: c.value })).join('; '));
  const kind = isKindName(rule.type) ? ruleKind(rule.type) : undefined;
  if (kind === undefined || kind.point !== 'none') {
    out.set('point', rule.point.length > 0 ? `[${rule.point.map(formatPoint).join(', ')}]` : NONE);
  }
  const formatted = new Set<string>();
  const shown = (name: string) => declared === undefined || declared.fields[name] !== undefined;
  for (const field of kind?.fields ?? []) {
    const value = rule.fields[field.name];
    formatted.add(field.name);
    if (value === undefined || !shown(field.name)) continue;
    for (const [path, text] of field.show(value as never)) out.set(`${field.name}${path}`, text);
  }
  // A field this version's registry does not know (a plan from a newer version) still shows.
  for (const [name, value] of Object.entries(rule.fields)) if (!formatted.has(name) && shown(name)) out.set(name, formatUnknown(value));
  if (rule.comment !== undefined) out.set('comment', JSON.stringify(rule.comment));
  return out;
}

function formatUnknown(value: FieldValue): string {
  return typeof value === 'object' || typeof value === 'string' ? JSON.stringify(value) : String(value);
}

export function formatExpiry(seconds: number): string {
  return seconds >= NEVER_EXPIRES ? 'never' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

export function formatReason(reason: string | undefined): string {
  return reason === undefined || reason === '' ? NONE : JSON.stringify(reason);
}

/** IP attributes besides the values (shown as a block of their own). */
export function ipAttributes(object: Pick<PlanIpObject, 'expires_at' | 'reason'>): Map<string, string> {
  return new Map([['expires', formatExpiry(object.expires_at)], ['reason', formatReason(object.reason)]]);
}

/**
 * Every attribute of `after`, with `old` where `before` differs; attributes
 * only `before` has come last with the value `(none)`.
 */
export function compareAttributes(after: ReadonlyMap<string, string>, before?: ReadonlyMap<string, string>): Attribute[] {
  const out: Attribute[] = [];
  for (const [name, value] of after) {
    const old = before?.get(name) ?? (before ? NONE : undefined);
    out.push(old !== undefined && old !== value ? { name, value, old } : { name, value });
  }
  for (const [name, old] of before ?? []) if (!after.has(name)) out.push({ name, value: NONE, old });
  return out;
}
