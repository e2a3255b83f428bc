import { describe, expect, it } from 'vitest';
import { withReferenceResolved, type Rule } from '../../../src/model/rule.js';
import { referencesOf, RULE_KINDS } from '../../../src/rules/registry.js';

describe('references between rules', () => {
  it('are declared by the registry: ignore_regex names a regex rule, resolved into regex_id', () => {
    const declared = RULE_KINDS.flatMap((kind) => kind.fields.flatMap((field) => (field.ref ? [`${kind.yaml}.${field.name} → ${field.ref.kind} (${field.ref.idField})`] : [])));
    expect(declared).toEqual(['ignore_regex.regex_rule → regex (regex_id)']);
    // A reference is the policy's: never sent, never read back, not part of what the rule is.
    const field = RULE_KINDS.find((kind) => kind.yaml === 'ignore_regex')?.fields.find((f) => f.name === 'regex_rule');
    expect(field?.local).toBe(true);
  });

  it('are found on a rule that names another, and resolved to the id', () => {
    const rule = { client: 1, kind: 'ignore_regex', fields: { regex_rule: 'scanner' }, conditions: [], point: [['header', 'USER-AGENT']] } as unknown as Rule;
    const [reference] = referencesOf(rule.kind, rule.fields);
    expect(reference).toEqual({ kind: 'regex', idField: 'regex_id', field: 'regex_rule', name: 'scanner' });
    expect(withReferenceResolved(rule, reference!, 12).fields).toEqual({ regex_id: 12 });
    expect(referencesOf('ignore_regex', { regex_id: 12 })).toEqual([]);
    expect(referencesOf('vpatch', { attack: 'sqli' })).toEqual([]);
  });
});
