/**
 * The JSON Schema of a rule, generated from the registry: the keys every rule
 * has, every kind's fields, and one `if type = K then …` per kind that makes
 * its required fields required, fixes each field's exact shape, and forbids
 * the fields of other kinds (so `rate` in a `vpatch` rule is "not allowed").
 */
import type { KindField, RuleKind } from './kind.js';
import { KIND_NAMES, RULE_KINDS, ruleKind } from './registry.js';

const kinds = RULE_KINDS as readonly RuleKind[];

function fieldSchema(field: KindField): Record<string, unknown> {
  return { description: field.description, ...field.schema, ...(field.example !== undefined ? { examples: [field.example] } : {}) };
}

/** Field names of every kind, in registry order, each once, and the old names of renamed ones. */
function allFieldNames(): string[] {
  return [...new Set(kinds.flatMap((kind) => [...kind.fields.map((field) => field.name), ...Object.keys(kind.renamed)]))];
}

/** An old key: the new field's shape, marked deprecated. */
function renamedSchema(kind: RuleKind, old: string): Record<string, unknown> {
  const name = kind.renamed[old] as string;
  const field = kind.fields.find((f) => f.name === name) as KindField;
  return { ...fieldSchema(field), description: `Renamed \`${name}\`: ${field.description}`, deprecated: true };
}

/** The top-level entry of a field name several kinds use: their descriptions, the exact shape in the `then`. */
function sharedProperty(name: string): Record<string, unknown> {
  const renamer = kinds.find((kind) => name in kind.renamed);
  if (renamer) return renamedSchema(renamer, name);
  const users = kinds.filter((kind) => kind.fields.some((field) => field.name === name));
  const [only] = users;
  if (users.length === 1 && only) return fieldSchema(only.fields.find((field) => field.name === name) as KindField);
  const written = users.map((kind) => (kind.fields.find((field) => field.name === name) as KindField).example).filter((e) => e !== undefined);
  const examples = [...new Set(written.map((e) => JSON.stringify(e)))].map((e) => JSON.parse(e) as unknown);
  return {
    description: `A field of ${users.map((kind) => `\`${kind.yaml}\``).join(', ')} rules; its values depend on \`type\`.`,
    ...(examples.length > 0 ? { examples } : {}),
  };
}

function kindRule(kind: RuleKind): Record<string, unknown> {
  const own = new Set(kind.fields.map((field) => field.name));
  const properties: Record<string, unknown> = {};
  for (const field of kind.fields) properties[field.name] = fieldSchema(field);
  for (const old of Object.keys(kind.renamed)) {
    properties[old] = renamedSchema(kind, old);
    own.add(old);
  }
  for (const name of allFieldNames()) if (!own.has(name)) properties[name] = false;
  if (kind.point === 'none') properties.point = false;
  const required = [...kind.fields.filter((field) => field.required).map((field) => field.name), ...(kind.point === 'required' ? ['point'] : [])];
  const oneOf = kind.exactlyOne.length > 0
    ? { oneOf: kind.exactlyOne.map((name) => ({ required: [name] })), 'x-message': `needs exactly one of ${kind.exactlyOne.join(', ')}` }
    : {};
  return { type: 'object', ...(required.length > 0 ? { required } : {}), properties, ...oneOf };
}

/** Where a kind's own schema lies among the document's `$defs`. */
const kindDef = (kind: RuleKind): string => `rule-${kind.yaml}`;

/**
 * Each kind's schema under `$defs` of its own. A reference is compiled into a
 * function of its own: the 26 kinds written inline in the rule made one
 * function of 17,000 lines, too large for V8 to optimize, so every rule of a
 * load was validated by the interpreter (2.6 µs a rule against 0.6).
 */
export function ruleKindSchemas(): Record<string, unknown> {
  return Object.fromEntries(kinds.map((kind) => [kindDef(kind), kindRule(kind)]));
}

export function ruleSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    name: {
      description: 'Unique within the file; shown in plans and errors, and kept in the owner mark.',
      type: 'string', minLength: 1, maxLength: 128, pattern: '^[^\\r\\n]+$', examples: ['block-legacy-admin'],
    },
    type: {
      description: `The kind of rule: ${kinds.map((kind) => `\`${kind.yaml}\``).join(', ')}. It decides which other fields apply.`,
      enum: [...KIND_NAMES],
      examples: [...KIND_NAMES],
    },
    point: {
      description: 'Where in the request the rule looks: a list of point elements, each `[name]` or `[name, argument]`, e.g. `[[header, HOST]]` or `[[post], [json_doc], [hash, password]]`.',
      type: 'array', minItems: 1, items: { $ref: '#/$defs/point' }, examples: [[['header', 'HOST']], [['get', 'q']]],
    },
    when: {
      description: 'Conditions selecting the traffic, all of which must hold (ANDed). At most 60 per rule, counting the application\'s instance condition.',
      type: 'array', items: { $ref: '#/$defs/condition' }, examples: [[{ point: ['path', 0], equal: 'admin' }]],
    },
    comment: {
      description: 'Free text stored with the rule (Rampart appends its owner mark). Must not be empty.',
      type: 'string', minLength: 1, examples: ['flags a known scanner'],
    },
  };
  for (const name of allFieldNames()) properties[name] = sharedProperty(name);
  return {
    description: 'One rule. `type` decides which other fields apply.',
    type: 'object',
    additionalProperties: false,
    required: ['name', 'type'],
    properties,
    // The `if` holds only for an object: a rule that is not one has the one error of the rule's own `type`.
    allOf: kinds.map((kind) => ({ if: { type: 'object', properties: { type: { const: kind.yaml } }, required: ['type'] }, then: { $ref: `#/$defs/${kindDef(kind)}` } })),
    examples: [{ name: 'block-legacy-admin', type: 'vpatch', attack: 'any', point: [['header', 'HOST']] }],
  };
}

/** The file's top-level `mode:`: the `mode` kind's field. */
export function filteringModeSchema(): Record<string, unknown> {
  const field = ruleKind('mode').fields.find((f) => f.name === 'mode') as KindField;
  return fieldSchema(field);
}
