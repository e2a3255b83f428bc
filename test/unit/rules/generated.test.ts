/** The files generated from the rule-kind registry must match it: run `npm run generate` after changing a kind. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaText } from '../../../src/policy/schema-document.js';
import { generatedBlock, ruleKindReference } from '../../../src/rules/reference.js';
import { VALIDATOR_FILE, validatorSource } from '../../../scripts/generate-validator.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('files generated from the registry', () => {
  it('schemas/policy.schema.json is current', () => {
    expect(readFileSync(join(ROOT, 'schemas', 'policy.schema.json'), 'utf8'), 'run npm run generate').toBe(schemaText());
  });

  it('the validator generated from the schema is current', () => {
    expect(readFileSync(VALIDATOR_FILE, 'utf8'), 'run npm run build').toBe(validatorSource(JSON.parse(schemaText())));
  });

  it('refuses a schema that needs evaluation tracking, which the generated validator leaves out', () => {
    const schema = { type: 'object', properties: { a: { type: 'object', unevaluatedProperties: false } } };
    expect(() => validatorSource(schema)).toThrow(/unevaluatedProperties or unevaluatedItems/);
    expect(validatorSource({ type: 'object', properties: { a: { type: 'string' } } })).not.toMatch(/evaluated\d*\.props/);
  });

  it('counts the failures of an `if` branch without making an error object for each (an ajv upgrade that changes their shape fails here)', () => {
    const schema = { type: 'object', allOf: [{ if: { properties: { type: { const: 'a' } } }, then: { required: ['x'] } }] };
    const source = validatorSource(schema);
    expect(source).toMatch(/if\("a" !== data\.type\)\{errors\+\+;\}/);
    expect(source).not.toMatch(/ = \{\};if\(vErrors === null\)/);
    expect(readFileSync(VALIDATOR_FILE, 'utf8')).not.toMatch(/ = \{\};if\(vErrors === null\)/);
  });

  it('compiles each rule kind into a function of its own, small enough for V8 to optimize', () => {
    // Inlined, the 26 kinds made the rule's function 717 KB of source, which V8 only ever interpreted (2.6 µs a rule, not 0.6).
    const source = readFileSync(VALIDATOR_FILE, 'utf8');
    const starts = [...source.matchAll(/function validate\d+\(/g)].map((match) => match.index);
    const sizes = starts.map((at, i) => (starts[i + 1] ?? source.length) - at);
    expect(starts.length).toBeGreaterThan(26);
    expect(Math.max(...sizes)).toBeLessThan(128 * 1024);
  });

  it('the rule-kind tables of docs/policy-reference.md are current', () => {
    const text = readFileSync(join(ROOT, 'docs', 'policy-reference.md'), 'utf8');
    expect(generatedBlock(text), 'run npm run generate').toBe(`\n\n${ruleKindReference()}\n`);
  });
});
