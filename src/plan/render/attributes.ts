/**
 * An object's attributes as a reviewer reads them, by their policy-file
 * names, and which of them differ between two versions. Each class lists its
 * own (render/classes/): a rule's fields come from the kind registry, so a new
 * kind shows its fields with no change anywhere.
 */

export interface Attribute {
  readonly name: string;
  /** The value (the new one when it changes). */
  readonly value: string;
  /** Present when the value changes: what it was. */
  readonly old?: string;
}

export const NONE = '(none)';

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
