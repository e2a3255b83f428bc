/**
 * Rules that name another rule of their file instead of giving its id (a
 * reference field of the registry: `ignore_regex`'s `regex_rule` names a
 * `regex` rule). Before the diff, each is resolved to the id the service gave
 * the named rule, when that rule exists and stays: it is unchanged, or updated
 * in place (an update keeps the id). When the named rule is still to be made
 * (new, or replaced because what it matches changed), the reference stays: the
 * referring rule is then a new rule, which apply creates after the named one,
 * with the id its create answers. A rule that pointed at the replaced one is
 * no longer declared and goes.
 */
import { kindOf, referencesOfRule, ruleKey, withReferenceResolved, type DesiredRule, type LiveRule } from '../model/rule.js';

/** The instance conditions: one declared rule expands to one rule per application. */
function applicationOf(rule: DesiredRule | LiveRule): string {
  return JSON.stringify(rule.conditions.filter((c) => c.point[0] === 'instance').map((c) => c.value).sort());
}

/** The id a live rule carries for references to it (a regex rule's `regex_id`). */
function referenceId(rule: LiveRule, idField: string): number | undefined {
  return idField === 'regex_id' ? rule.regexId : undefined;
}

export function hasReferences(desired: readonly DesiredRule[]): boolean {
  // Asked once per plan of every declared rule: a kind with no reference field is not asked rule by rule.
  const referring = new Map<string, boolean>();
  return desired.some((rule) => {
    let may = referring.get(rule.kind);
    if (may === undefined) referring.set(rule.kind, (may = kindOf(rule).fields.some((field) => field.ref !== undefined)));
    return may && referencesOfRule(rule).length > 0;
  });
}

export function resolveReferences(desired: readonly DesiredRule[], live: readonly LiveRule[]): DesiredRule[] {
  // Owned rules first, then by id: the copy Rampart keeps is the one a reference resolves to.
  const byKey = new Map<string, LiveRule[]>();
  for (const rule of [...live].sort((a, b) => Number(a.owner === undefined) - Number(b.owner === undefined) || a.id - b.id)) {
    byKey.set(ruleKey(rule), [...(byKey.get(ruleKey(rule)) ?? []), rule]);
  }
  const targetKey = (client: number, file: string, kind: string, name: string, application: string) => JSON.stringify([client, file, kind, name, application]);
  const targets = new Map<string, DesiredRule>();
  for (const rule of desired) targets.set(targetKey(rule.client, rule.source.file, rule.kind, rule.source.name, applicationOf(rule)), rule);
  return desired.map((rule) => {
    let resolved = rule;
    for (const reference of referencesOfRule(rule)) {
      const target = targets.get(targetKey(rule.client, rule.source.file, reference.kind, reference.name, applicationOf(rule)));
      const copies = target ? byKey.get(ruleKey(target)) ?? [] : [];
      const id = copies.map((copy) => referenceId(copy, reference.idField)).find((found) => found !== undefined);
      if (id === undefined) return rule;
      resolved = withReferenceResolved(resolved, reference, id);
    }
    return resolved;
  });
}
