/**
 * Another valid value of a rule field, for tests that change every field of
 * every kind: read from the field's declaration (its schema, example and the
 * service's default), nested values included.
 */
import { sameValue, type FieldValue } from '../../src/rules/field.js';
import type { KindField } from '../../src/rules/kind.js';

type Described = Pick<KindField, 'schema' | 'example' | 'serviceDefault' | 'createDefault' | 'absentIs'>;

/** `value` with its first number or boolean changed, else its first list of strings (not a point) extended; undefined when it has neither. */
function changedInside(value: FieldValue | undefined, scalars: boolean): FieldValue | undefined {
  if (typeof value === 'number') return scalars ? value + 1 : undefined;
  if (typeof value === 'boolean') return scalars ? !value : undefined;
  if (typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === 'string')) return scalars ? undefined : [...value, 'extra'];
    const first = changedInside(value[0], scalars);
    return first === undefined ? undefined : [first, ...value.slice(1)];
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'point') continue;
    const changed = changedInside(inner, scalars);
    if (changed !== undefined) return { ...value, [key]: changed };
  }
  return undefined;
}

export function otherValue(field: Described, value: FieldValue | undefined): FieldValue {
  const schema = field.schema as { enum?: string[]; type?: string; minimum?: number; maximum?: number };
  // Left out, a create sends the field's create default where it has one, else the service fills its own.
  const current = value === undefined || (field.absentIs !== undefined && sameValue(value, field.absentIs)) ? field.createDefault ?? field.serviceDefault : value;
  if (current === undefined) {
    if (field.example !== undefined) return field.example;
    throw new Error('a field without a value, a service default or an example');
  }
  if (schema.enum) return schema.enum.find((v) => v !== current) as string;
  if (typeof current === 'number') {
    return current + 1 <= (schema.maximum ?? Number.MAX_SAFE_INTEGER) ? current + 1 : current - 1;
  }
  if (typeof current === 'boolean') return !current;
  if (typeof current === 'string') return `${current}x`;
  const changed = changedInside(current, true) ?? changedInside(current, false);
  if (changed === undefined) throw new Error(`no other value for ${JSON.stringify(current)}`);
  return changed;
}
