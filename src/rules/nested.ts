/**
 * Nested values declared like flat ones (the Terraform plugin framework's
 * nested attributes): an object with fixed keys, a union chosen by a key, a
 * list. Each composes its parts' checks, canonical forms, API shapes, schema
 * fragments and plan lines, so a kind with nested values is still one file of
 * data.
 *
 * A nested value is managed as a whole: a written `threshold` is compared and
 * sent whole. Inside it, a key the service fills when left out (a point's
 * `sensitive`) is filled on both sides, so the two compare equal and the body
 * says what the service would store anyway.
 */
import { field, type FieldFactory, type FieldProblem, type FieldSpec, type FieldValue, type ValueOf } from './field.js';

type Parts = Readonly<Record<string, FieldFactory<FieldValue>>>;

/** An object value of the parts `P`, by key. */
export type ObjectValue<P extends Parts> = { readonly [K in keyof P]?: ValueOf<P[K]> };

interface NestedCommon<V extends FieldValue> {
  readonly api?: string;
  readonly required?: boolean;
  readonly absentIs?: V;
  readonly description: string;
  readonly example?: V;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function below(prefix: string | number, problems: readonly FieldProblem[]): FieldProblem[] {
  return problems.map((p) => ({ ...p, at: [prefix, ...p.at] }));
}

function keySchema(part: FieldSpec): Record<string, unknown> {
  return { description: part.description, ...part.schema };
}

/** The object logic shared by `object` and each branch of `union`. */
function objectShape(parts: Parts) {
  const specs = Object.entries(parts).map(([name, factory]) => [name, factory(name)] as const);
  const shape = {
    specs,
    schema: (extra: Record<string, unknown> = {}) => ({
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(specs.map(([name, part]) => [name, keySchema(part)])),
      ...(specs.some(([, part]) => part.required) ? { required: specs.filter(([, part]) => part.required).map(([name]) => name) } : {}),
      ...extra,
    }),
    problems: (written: Readonly<Record<string, unknown>>): FieldProblem[] =>
      specs.flatMap(([name, part]) => (written[name] === undefined ? [] : below(name, part.problems(written[name])))),
    canonical: (written: Readonly<Record<string, unknown>>): Record<string, FieldValue> => {
      const out: Record<string, FieldValue> = {};
      for (const [name, part] of specs) {
        const value = written[name] === undefined ? part.serviceDefault : part.canonical(written[name]);
        if (value !== undefined) out[name] = value;
      }
      return out;
    },
    fromApi: (listed: Readonly<Record<string, unknown>>): Record<string, FieldValue> | undefined => {
      const out: Record<string, FieldValue> = {};
      for (const [name, part] of specs) {
        const value = part.fromApi(listed[part.api]) ?? part.serviceDefault;
        if (value !== undefined) out[name] = value;
        else if (part.required) return undefined;
      }
      return out;
    },
    toApi: (value: Readonly<Record<string, FieldValue>>): Record<string, unknown> =>
      Object.fromEntries(specs.flatMap(([name, part]) => (value[name] === undefined ? [] : [[part.api, part.toApi(value[name])]]))),
    written: (value: Readonly<Record<string, FieldValue>>): Record<string, unknown> =>
      Object.fromEntries(specs.flatMap(([name, part]) => {
        const v = value[name];
        if (v === undefined || (!part.required && part.serviceDefault !== undefined && JSON.stringify(v) === JSON.stringify(part.serviceDefault))) return [];
        return [[name, part.written(v)]];
      })),
    show: (value: Readonly<Record<string, FieldValue>>): [string, string][] =>
      specs.flatMap(([name, part]) => (value[name] === undefined ? [] : part.show(value[name]).map(([path, text]): [string, string] => [`.${name}${path}`, text]))),
    format: (value: Readonly<Record<string, FieldValue>>): string =>
      `{${specs.flatMap(([name, part]) => (value[name] === undefined ? [] : [`${name}: ${part.format(value[name])}`])).join(', ')}}`,
  };
  return shape;
}

/** An object with fixed keys: `threshold: { count, period }`. */
export function object<const P extends Parts>(parts: P, options: NestedCommon<ObjectValue<P>> & { readonly minKeys?: number }): FieldFactory<ObjectValue<P>> {
  const shape = objectShape(parts);
  type V = ObjectValue<P>;
  return field<V>(options, {
    schema: shape.schema(options.minKeys !== undefined ? { minProperties: options.minKeys } : {}),
    values: `object: ${shape.specs.map(([name]) => `\`${name}\``).join(', ')}`,
    problems: (written) => shape.problems(written as Record<string, unknown>),
    canonical: (written) => shape.canonical(written as Record<string, unknown>) as V,
    fromApi: (listed) => (isRecord(listed) ? (shape.fromApi(listed) as V | undefined) : undefined),
    toApi: (value) => shape.toApi(value as Record<string, FieldValue>),
    written: (value) => shape.written(value as Record<string, FieldValue>),
    show: (value) => shape.show(value as Record<string, FieldValue>),
    format: (value) => shape.format(value as Record<string, FieldValue>),
  });
}

/** A value of a union: its tag and the chosen branch's keys. */
export type UnionValue = { readonly [key: string]: FieldValue };

/**
 * A union chosen by a key: `enumerated_parameters` is `mode: exact` with
 * `points`, or `mode: regexp` with the regexp keys. A key of another branch
 * is "not allowed" at that key.
 */
export function union(tag: string, branches: Readonly<Record<string, Parts>>, options: NestedCommon<UnionValue>): FieldFactory<UnionValue> {
  const shapes = new Map(Object.entries(branches).map(([name, parts]) => [name, objectShape(parts)]));
  const allKeys = [...new Set([...shapes.values()].flatMap((shape) => shape.specs.map(([name]) => name)))];
  const branchOf = (value: Readonly<Record<string, unknown>>) => shapes.get(String(value[tag]));
  const tagged = (value: Readonly<Record<string, unknown>>, rest: Record<string, unknown>) => ({ [tag]: value[tag], ...rest });
  const properties: Record<string, unknown> = { [tag]: { description: `Which form: ${[...shapes.keys()].map((b) => `\`${b}\``).join(' or ')}.`, enum: [...shapes.keys()] } };
  for (const shape of shapes.values()) Object.assign(properties, shape.schema().properties);
  return field<UnionValue>(options, {
    schema: {
      type: 'object',
      additionalProperties: false,
      required: [tag],
      properties,
      allOf: [...shapes].map(([name, shape]) => {
        const own = new Set(shape.specs.map(([key]) => key));
        const { required } = shape.schema() as { required?: string[] };
        return {
          if: { properties: { [tag]: { const: name } }, required: [tag] },
          then: { ...(required ? { required } : {}), properties: Object.fromEntries(allKeys.filter((key) => !own.has(key)).map((key) => [key, false])) },
        };
      }),
    },
    values: [...shapes].map(([name, shape]) => `\`${tag}: ${name}\` with ${shape.specs.map(([key]) => `\`${key}\``).join(', ')}`).join('; or '),
    problems: (written) => branchOf(written as Record<string, unknown>)?.problems(written as Record<string, unknown>) ?? [],
    canonical: (written) => {
      const value = written as Record<string, unknown>;
      return tagged(value, (branchOf(value) as ReturnType<typeof objectShape>).canonical(value)) as UnionValue;
    },
    fromApi: (listed) => {
      if (!isRecord(listed) || typeof listed[tag] !== 'string' || listed[tag] === '') return undefined;
      const branch = branchOf(listed);
      // A form the service added after this version is kept by its tag: it differs from any declaration, it breaks nothing.
      if (!branch) return { [tag]: listed[tag] } as UnionValue;
      const read = branch.fromApi(listed);
      return read && (tagged(listed, read) as UnionValue);
    },
    toApi: (value) => tagged(value, branchOf(value)?.toApi(value) ?? {}),
    written: (value) => tagged(value, branchOf(value)?.written(value) ?? {}),
    show: (value) => [[`.${tag}`, String(value[tag])], ...(branchOf(value)?.show(value) ?? [])],
    format: (value) => `${String(value[tag])} ${branchOf(value)?.format(value) ?? ''}`,
  });
}

/** A list of values of one shape (`advanced_conditions`, a union's `points`); order is kept. */
export function list<V extends FieldValue>(item: FieldFactory<V>, options: NestedCommon<readonly V[]> & { readonly minItems?: number }): FieldFactory<readonly V[]> {
  return (name) => {
    const part = item(`${name}[]`);
    return field<readonly V[]>(options, {
      schema: { type: 'array', ...(options.minItems !== undefined ? { minItems: options.minItems } : {}), items: keySchema(part) },
      values: `list of ${part.values}`,
      problems: (written) => (written as unknown[]).flatMap((value, index) => below(index, part.problems(value))),
      canonical: (written) => (written as unknown[]).map((value) => part.canonical(value)),
      fromApi: (listed) => {
        if (!Array.isArray(listed)) return undefined;
        const values = listed.map((value) => part.fromApi(value));
        return values.every((value) => value !== undefined) ? (values as V[]) : undefined;
      },
      toApi: (value) => value.map((v) => part.toApi(v)),
      written: (value) => value.map((v) => part.written(v)),
      show: (value) => (value.length === 0 ? [] : value.flatMap((v, index) => part.show(v).map(([path, text]): [string, string] => [`[${index}]${path}`, text]))),
      format: (value) => `[${value.map((v) => part.format(v)).join(', ')}]`,
    })(name);
  };
}
