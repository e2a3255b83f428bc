/**
 * A rule kind's own fields, as data: each knows its API name, whether it is
 * required, the value the service fills when it is left out, its JSON Schema
 * fragment (enums, ranges), its checks, its canonical form, its API shape, how
 * to read it from a listing and how a plan prints it. Everything generic
 * (schema, normalizers, request bodies, plans, export) reads these; no field is
 * known anywhere else. Flat helpers live here; nested ones (object, union,
 * list, duration, point) in nested.ts and leaves.ts.
 */

/** A canonical field value: scalars, lists, and objects with fixed keys (nested values). */
export type FieldValue = string | number | boolean | readonly FieldValue[] | { readonly [key: string]: FieldValue | undefined };

/** A problem the schema cannot see, at a path below the field (`['reaction', 'block_by_ip']` is relative to the rule). */
export interface FieldProblem {
  readonly code: string;
  readonly message: string;
  readonly at: readonly (string | number)[];
  /** Placed at the key rather than its value (a key that must not be there). */
  readonly atKey?: boolean;
}

export interface FieldSpec<V extends FieldValue = FieldValue> {
  /** The API's name of the field (`attack_type` for `attack`). */
  readonly api: string;
  readonly required: boolean;
  /**
   * What the service fills when a create leaves the field out. Data only (for
   * `export` and the docs): a field a rule leaves out is the service's, never
   * compared, never sent.
   */
  readonly serviceDefault?: V;
  /**
   * What leaving the field out says, on both sides (`[]`: no extra conditions;
   * `false`: the plain API type). Only for fields whose absence is a statement,
   * not the service's choice.
   */
  readonly absentIs?: V;
  /**
   * Sent in a create when the rule leaves the field out, because the service
   * requires it and its own client sends this (`api_abuse_mode`'s `mode`:
   * `enabled`). Still the service's: never compared, never sent in an update.
   */
  readonly createDefault?: V;
  readonly description: string;
  readonly example?: V;
  /** JSON Schema of the value as written. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** The "values" column of the reference docs (`integer 1..100`). */
  readonly values: string;
  /**
   * Written in the policy and resolved before planning (a reference to another
   * declared rule); never sent to the API nor read from a listing.
   */
  readonly local?: boolean;
  /** A reference to another rule of the same file, by its `name` (see `ref`). */
  readonly ref?: RuleReference;
  /** Checks the schema cannot express, on the schema-valid value as written; paths relative to the field. */
  problems(written: unknown): FieldProblem[];
  /** The schema-valid value as written → canonical form (`1h` → 3600). */
  canonical(written: unknown): V;
  /** The value as listed, in canonical form; undefined when absent, "not set" or not of this field's shape. */
  fromApi(value: unknown): V | undefined;
  /** The value in a create or update body. */
  toApi(value: V): unknown;
  /** The value as a person writes it (export): inner defaults left out, durations with a unit. */
  written(value: V): unknown;
  /** Plan lines: `['', '10']` for a flat value, `['.count', '20']`, `['.count', …]` for a nested one. */
  show(value: V): readonly (readonly [string, string])[];
  /** One line for notes and messages. */
  format(value: V): string;
}

interface Common<V extends FieldValue> {
  /** Default: the YAML name. */
  readonly api?: string;
  readonly required?: boolean;
  readonly serviceDefault?: V;
  readonly absentIs?: V;
  readonly createDefault?: V;
  readonly description: string;
  /** For the schema's hover help and the docs; nested keys may leave it out. */
  readonly example?: V;
}

/**
 * Field constructors take the YAML name last-bound by `defineRuleKind` (it
 * fills `api` when not given), so a kind module reads as a table.
 */
export type FieldFactory<V extends FieldValue = FieldValue> = (yamlName: string) => FieldSpec<V>;

/** The value type a factory produces. */
export type ValueOf<F> = F extends FieldFactory<infer V> ? V : never;

/** The parts a helper defines; `field` adds the common ones. */
export type Shape<V extends FieldValue> = Pick<FieldSpec<V>, 'schema' | 'values' | 'canonical' | 'fromApi' | 'format'> &
  Partial<Pick<FieldSpec<V>, 'problems' | 'toApi' | 'written' | 'show'>>;

export function field<V extends FieldValue>(options: Common<V> & { readonly local?: boolean }, shape: Shape<V>): FieldFactory<V> {
  return (name) => ({
    api: options.api ?? name,
    required: options.required ?? false,
    ...(options.serviceDefault !== undefined ? { serviceDefault: options.serviceDefault } : {}),
    ...(options.absentIs !== undefined ? { absentIs: options.absentIs } : {}),
    ...(options.createDefault !== undefined ? { createDefault: options.createDefault } : {}),
    ...(options.local ? { local: true } : {}),
    description: options.description,
    ...(options.example !== undefined ? { example: options.example } : {}),
    problems: () => [],
    toApi: (value) => value,
    written: (value) => value,
    show: (value) => [['', shape.format(value)]],
    ...shape,
  });
}

function range(min: number | undefined, max: number | undefined): string {
  return min !== undefined && max !== undefined ? `${min}..${max}` : min !== undefined ? `≥ ${min}` : '';
}

export function int(options: Common<number> & { readonly min?: number; readonly max?: number }): FieldFactory<number> {
  return field(options, {
    schema: {
      type: 'integer',
      ...(options.min !== undefined ? { minimum: options.min } : {}),
      // Without a bound of its own, the largest integer YAML reads exactly: `stamp: 9007199254740993` read as …992.
      maximum: options.max ?? Number.MAX_SAFE_INTEGER,
    },
    values: `integer ${range(options.min, options.max)}`.trimEnd(),
    canonical: (value) => value as number,
    fromApi: (value) => {
      const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
      return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
    },
    format: (value) => String(value),
  });
}

export function oneOf<const T extends string>(values: readonly T[], options: Common<T>): FieldFactory<T> {
  return field(options, {
    schema: { enum: [...values] },
    values: values.map((v) => `\`${v}\``).join(', '),
    canonical: (value) => value as T,
    // A value the service added after this version is kept as listed: it differs from any declaration, it breaks nothing.
    fromApi: (value) => (typeof value === 'string' && value !== '' ? (value as T) : undefined),
    format: (value) => value,
  });
}

export function bool(options: Common<boolean>): FieldFactory<boolean> {
  return field(options, {
    schema: { type: 'boolean' },
    values: 'boolean',
    canonical: (value) => value as boolean,
    fromApi: (value) => (typeof value === 'boolean' ? value : undefined),
    format: (value) => String(value),
  });
}

export interface TextCheck {
  readonly code: string;
  problem(value: string): string | undefined;
}

/**
 * Where a reference leads: a rule of kind `kind` declared in the same file
 * (and for the same applications). It is resolved to the id the service gave
 * that rule, written into `idField`: looked up in the live state before
 * planning, or taken from the rule's create when the same apply makes it, so
 * the apply creates the named rule first.
 */
export interface RuleReference {
  /** The kind of the rule named (`regex`). */
  readonly kind: string;
  /** The field that carries the resolved id, on the referring rule and in the named rule's API record (`regex_id`). */
  readonly idField: string;
}

/** The `name` of another rule of the file (see RuleReference); written in the policy, never sent. */
export function ref(options: Common<string> & RuleReference & { readonly maxLength?: number }): FieldFactory<string> {
  const factory = text({ ...options, local: true });
  return (name) => ({ ...factory(name), ref: { kind: options.kind, idField: options.idField } });
}

export function text(options: Common<string> & { readonly check?: TextCheck; readonly maxLength?: number; readonly local?: boolean }): FieldFactory<string> {
  const { check } = options;
  return field(options, {
    schema: { type: 'string', minLength: 1, ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}) },
    values: 'string',
    problems: (written) => {
      const message = check?.problem(written as string);
      return check && message !== undefined ? [{ code: check.code, message, at: [] }] : [];
    },
    canonical: (value) => value as string,
    fromApi: (value) => (typeof value === 'string' && value !== '' ? value : undefined),
    format: (value) => JSON.stringify(value),
  });
}

/**
 * A list of strings whose order matters (header values are sent in order);
 * `allowEmpty` for `[""]`-style opt-outs; `check` runs on each non-empty item
 * (a list of regexes compiles item by item).
 */
export function strings(options: Common<readonly string[]> & { readonly allowEmpty?: boolean; readonly check?: TextCheck }): FieldFactory<readonly string[]> {
  const { check } = options;
  return field(options, {
    schema: { type: 'array', minItems: 1, items: { type: 'string', ...(options.allowEmpty ? {} : { minLength: 1 }) } },
    values: check === undefined ? 'list of strings' : 'list of regexes',
    problems: (written) => (check === undefined ? [] : (written as string[]).flatMap((item, index) => {
      const message = item === '' ? undefined : check.problem(item);
      return message === undefined ? [] : [{ code: check.code, message, at: [index] }];
    })),
    canonical: (value) => [...(value as string[])],
    fromApi: (value) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...(value as string[])] : undefined),
    toApi: (value) => [...value],
    format: (value) => `[${value.map((v) => JSON.stringify(v)).join(', ')}]`,
  });
}

/** Canonical equality of two field values, nested ones key by key (a plan compares every rule: no serializing). */
export function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v: FieldValue, i) => sameValue(v, b[i] as FieldValue));
  }
  const x = a as Readonly<Record<string, FieldValue | undefined>>;
  const y = b as Readonly<Record<string, FieldValue | undefined>>;
  const keys = Object.keys(x).filter((key) => x[key] !== undefined);
  return keys.length === Object.keys(y).filter((key) => y[key] !== undefined).length && keys.every((key) => sameValue(x[key], y[key]));
}
