/**
 * `ignore_regex` rules that name their regex rule (`regex_rule`, in the same
 * file) instead of giving its id. Before the diff, each is resolved to the
 * `regex_id` of the live rule its regex is, when that exists and stays: it is
 * unchanged, or updated in place (an update keeps the id). When the regex is
 * still to be made (new, or replaced because what it matches changed), the
 * reference stays: the ignore rule is then a new rule, which apply creates
 * after the regex, with the id the regex's create answers. An ignore rule that
 * pointed at the replaced regex is no longer declared and goes.
 */
import { fieldValues, ruleKey, type DesiredRule, type LiveRule } from '../model/rule.js';

/** The instance conditions: one declared rule expands to one rule per application. */
function applicationOf(rule: DesiredRule | LiveRule): string {
  return JSON.stringify(rule.conditions.filter((c) => c.point[0] === 'instance').map((c) => c.value).sort());
}

export function hasRegexReferences(desired: readonly DesiredRule[]): boolean {
  return desired.some((rule) => fieldValues(rule).regex_rule !== undefined);
}

export function resolveRegexReferences(desired: readonly DesiredRule[], live: readonly LiveRule[]): DesiredRule[] {
  const regexIds = new Map<string, number>();
  for (const rule of [...live].sort((a, b) => Number(a.owner === undefined) - Number(b.owner === undefined) || a.id - b.id)) {
    if (rule.kind === 'regex' && rule.regexId !== undefined && !regexIds.has(ruleKey(rule))) regexIds.set(ruleKey(rule), rule.regexId);
  }
  const targets = new Map<string, DesiredRule>();
  const targetKey = (client: number, file: string, name: string, application: string) => JSON.stringify([client, file, name, application]);
  for (const rule of desired) {
    if (rule.kind === 'regex') targets.set(targetKey(rule.client, rule.source.file, rule.source.name, applicationOf(rule)), rule);
  }
  return desired.map((rule) => {
    const name = fieldValues(rule).regex_rule;
    if (typeof name !== 'string') return rule;
    const target = targets.get(targetKey(rule.client, rule.source.file, name, applicationOf(rule)));
    const regexId = target ? regexIds.get(ruleKey(target)) : undefined;
    return regexId === undefined ? rule : ({ ...rule, fields: { regex_id: regexId } } as DesiredRule);
  });
}
