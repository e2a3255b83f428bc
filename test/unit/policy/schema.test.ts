/** The schema stays editor-friendly: every field documented, with examples, and closed. */
import { describe, expect, it } from 'vitest';
import { policySchema } from '../../../src/policy/index.js';

type Schema = Record<string, unknown>;
const schema = policySchema();
const defs = schema.$defs as Record<string, Schema>;

function resolve(node: Schema): Schema {
  const ref = node.$ref;
  return typeof ref === 'string' ? { ...(defs[ref.replace('#/$defs/', '')] as Schema), ...node } : node;
}

/** Every `properties` entry anywhere in the schema, with its path. */
function fields(node: unknown, path = '#'): [string, Schema][] {
  if (typeof node !== 'object' || node === null) return [];
  const out: [string, Schema][] = [];
  const record = node as Schema;
  if (typeof record.properties === 'object' && record.properties !== null && path.split('/').slice(-1)[0] !== 'then') {
    for (const [name, child] of Object.entries(record.properties as Record<string, Schema>)) {
      if (typeof child === 'object') out.push([`${path}/${name}`, child]);
    }
  }
  for (const [key, child] of Object.entries(record)) out.push(...fields(child, `${path}/${key}`));
  return out;
}

/** Each rule kind's exact shape, which the rule's `if type = K then` refers to: its fields are described once, in the rule's properties. */
const kindDefs = new Set(((defs.rule as Schema).allOf as Schema[]).map((branch) => String((branch.then as Schema).$ref).replace('#/$defs/', '')));
const inKindShape = (path: string): boolean => /\/(if|then)\//.test(path) || [...kindDefs].some((name) => path.startsWith(`#/$defs/${name}/`));

describe('policy schema', () => {
  it('is JSON Schema 2020-12', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it.each(fields(schema).filter(([path]) => !inKindShape(path)))('%s has a description and examples', (_path, field) => {
    const resolved = resolve(field);
    expect(typeof resolved.description).toBe('string');
    expect(Array.isArray(resolved.examples)).toBe(true);
  });

  it('closes every object with additionalProperties: false', () => {
    // A kind's shape is applied inside the rule, which is closed; the shape itself lists every field as allowed or `false`.
    const objects = [schema, ...Object.entries(defs).filter(([name]) => !kindDefs.has(name)).map(([, def]) => def)].filter((s) => s.type === 'object');
    const props = schema.properties as Record<string, Schema>;
    objects.push(props.ip_lists as Schema);
    for (const object of objects) expect(object.additionalProperties).toBe(false);
  });
});
