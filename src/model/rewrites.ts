/**
 * What the service stored differently from what was declared, field by field,
 * both in canonical form. The apply report shows it for a create's answer; the
 * plan shows it for an owned object its mark ties to a declaration. Each class
 * compares its own fields (rule-rewrites.ts, ip-rewrites.ts).
 */

export interface FieldRewrite {
  /** The policy-file name of the field: `when`, `point`, a kind's field (`attack`, `rate`, ...), `comment`, `value`, `expires`, ... */
  readonly field: string;
  readonly declared: string;
  readonly stored: string;
}

export const NONE = '(none)';

/** A text field as a rewrite shows it: quoted, or `(none)`. */
export function rewriteText(value: string | undefined): string {
  return value === undefined || value === '' ? NONE : JSON.stringify(value);
}

/** `when: [method] equal "get" → [method] equal "GET"; expires: … → …` */
export function describeRewrites(rewrites: readonly FieldRewrite[]): string {
  return rewrites.map((r) => `${r.field}: ${r.declared} → ${r.stored}`).join('; ');
}
