/**
 * Stable, readable rule names: a slug of the comment (or of the rule's type
 * and point when it has none) plus a short hash of the rule's content. The
 * hash leaves out the client and the application, so one rule exported for
 * applications 7 and 8 has the same name in both files, and a name never
 * depends on ids, listing order or what else the account holds.
 */
import { createHash } from 'node:crypto';
import { conditionKey, fieldValues, kindOf, sortConditions, type Rule } from '../model/rule.js';
import { appendTo } from '../plan/append.js';

const MAX_SLUG = 48;
const HASH_LENGTHS = [6, 10, 16, 64] as const;

export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG) return slug;
  const cut = slug.slice(0, MAX_SLUG);
  const boundary = cut.lastIndexOf('-');
  return (boundary >= 16 ? cut.slice(0, boundary) : cut).replace(/-+$/g, '');
}

/** Field values short enough to help a name (`sqli`, `block`, `429`), not free text. */
const NAMEABLE = /^[A-Za-z0-9_.-]{1,24}$/;

/** What the name says before the hash: the kind, its first short field value, its first point. */
export function nameStem(rule: Rule): string {
  const fromComment = rule.comment ? slugify(rule.comment) : '';
  if (fromComment) return fromComment;
  const values = fieldValues(rule);
  const parts: string[] = [rule.kind];
  const field = kindOf(rule).fields.find((f) => !f.viaType && NAMEABLE.test(String(values[f.name] ?? '')));
  if (field) parts.push(String(values[field.name]));
  const first = rule.point[0];
  if (first) parts.push(first.map(String).join('-'));
  return slugify(parts.join('-')) || slugify(rule.kind);
}

/** sha256 (hex) of what the rule matches and does, without client and instance. */
export function contentHash(rule: Rule): string {
  const conditions = sortConditions(rule.conditions.filter((c) => c.point[0] !== 'instance')).map(conditionKey);
  const values = fieldValues(rule);
  const fields = kindOf(rule).fields.map((f) => values[f.name] ?? null);
  const content = JSON.stringify([rule.kind, conditions, rule.point, fields]);
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Names for the rules of one file, in the order given. Where two stems and
 * short hashes meet (practically never), both take a longer hash; the result
 * does not depend on the order of `rules`.
 */
export function assignNames(rules: readonly Rule[]): string[] {
  const stems = rules.map(nameStem);
  const hashes = rules.map(contentHash);
  const lengths = rules.map(() => 0);
  for (;;) {
    const names = rules.map((_, i) => `${stems[i]}-${(hashes[i] as string).slice(0, HASH_LENGTHS[lengths[i] as number])}`);
    const seen = new Map<string, number[]>();
    names.forEach((name, i) => appendTo(seen, name, i));
    let grew = false;
    for (const indexes of seen.values()) {
      if (indexes.length < 2) continue;
      for (const i of indexes) {
        if ((lengths[i] as number) < HASH_LENGTHS.length - 1) {
          lengths[i] = (lengths[i] as number) + 1;
          grew = true;
        }
      }
    }
    if (!grew) return names;
  }
}

/** What a policy file accepts as a rule name (the schema's). */
const VALID_NAME = /^[^\r\n]{1,128}$/;

/**
 * The names to write: a managed rule keeps the name its owner mark carries
 * (what its policy called it), where that name is unique in the file; every
 * other rule keeps its generated name. An export of an account Rampart
 * manages then reads like the policies it came from.
 */
export function withMarkedNames(rules: readonly (Rule & { readonly name?: string })[], generated: readonly string[]): string[] {
  const marked = rules.map((rule) => (rule.name !== undefined && VALID_NAME.test(rule.name) ? rule.name : undefined));
  const uses = new Map<string, number>();
  for (const name of [...marked, ...generated]) if (name !== undefined) uses.set(name, (uses.get(name) ?? 0) + 1);
  return generated.map((name, i) => {
    const kept = marked[i];
    // Unique among the marked names and the generated ones alike (its own generated name aside).
    return kept !== undefined && (uses.get(kept) ?? 0) - (kept === name ? 1 : 0) === 1 ? kept : name;
  });
}
