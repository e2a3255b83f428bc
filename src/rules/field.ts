/**
 * A rule kind's own fields, as data: each knows its API name, whether it is
 * required, the default the service stores when it is left out, its JSON
 * Schema fragment (enums, ranges), its canonical form, how to read it from a
 * listing and how a plan prints it. Everything generic (schema, normalizers,
 * request bodies, plans, export) reads these; no field is known anywhere else.
 */

export type FieldValue = string | number | boolean | readonly string[];

export interface FieldSpec<V extends FieldValue = FieldValue> {
  /** The API's name of the field (`attack_type` for `attack`). */
  readonly api: string;
  readonly required: boolean;
  /**
   * What the service stores when the field is left out: filled in on both
   * sides, so an omitted field and the service's echo compare equal.
   */
  readonly default?: V;
  readonly description: string;
  readonly example: V;
  /** JSON Schema of the value as written. */
  readonly schema: Readonly<Record<string, unknown>>;
  /**
   * Written in the policy and resolved before planning (a reference to another
   * declared rule); never sent to the API nor read from a listing.
   */
  readonly local?: boolean;
  /** A check the schema cannot express (a regex that must compile): a problem, or undefined. */
  readonly check?: { readonly code: string; problem(value: V): string | undefined };
  /** The value as written (schema-valid) in canonical form. */
  canonical(value: V): V;
  /** The value as listed, in canonical form; undefined when absent or not of this field's shape. */
  fromApi(value: unknown): V | undefined;
  /** For plans and notes. */
  format(value: V): string;
}

interface Common<V extends FieldValue> {
  /** Default: the YAML name. */
  readonly api?: string;
  readonly required?: boolean;
  readonly default?: V;
  readonly description: string;
  readonly example: V;
}

function base<V extends FieldValue>(options: Common<V>, api: string): Pick<FieldSpec<V>, 'api' | 'required' | 'description' | 'example'> & { default?: V } {
  return {
    api: options.api ?? api,
    required: options.required ?? false,
    ...(options.default !== undefined ? { default: options.default } : {}),
    description: options.description,
    example: options.example,
  };
}

/**
 * Field constructors take the YAML name last-bound by `defineRuleKind` (it
 * fills `api` when not given), so a kind module reads as a table.
 */
export type FieldFactory<V extends FieldValue = FieldValue> = (yamlName: string) => FieldSpec<V>;

export function int(options: Common<number> & { readonly min?: number; readonly max?: number }): FieldFactory<number> {
  return (name) => ({
    ...base(options, name),
    schema: {
      type: 'integer',
      ...(options.min !== undefined ? { minimum: options.min } : {}),
      ...(options.max !== undefined ? { maximum: options.max } : {}),
    },
    canonical: (value) => value,
    fromApi: (value) => {
      const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
      return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
    },
    format: (value) => String(value),
  });
}

export function oneOf<const T extends string>(values: readonly T[], options: Common<T>): FieldFactory<T> {
  return (name) => ({
    ...base(options, name),
    schema: { enum: [...values] },
    canonical: (value) => value,
    // A value the service added after this version is kept as listed: it differs from any declaration, it breaks nothing.
    fromApi: (value) => (typeof value === 'string' && value !== '' ? (value as T) : undefined),
    format: (value) => value,
  });
}

export function bool(options: Common<boolean>): FieldFactory<boolean> {
  return (name) => ({
    ...base(options, name),
    schema: { type: 'boolean' },
    canonical: (value) => value,
    fromApi: (value) => (typeof value === 'boolean' ? value : undefined),
    format: (value) => String(value),
  });
}

export function text(options: Common<string> & { readonly check?: FieldSpec<string>['check']; readonly maxLength?: number; readonly local?: boolean }): FieldFactory<string> {
  return (name) => ({
    ...base(options, name),
    ...(options.local ? { local: true } : {}),
    schema: { type: 'string', minLength: 1, ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}) },
    ...(options.check ? { check: options.check } : {}),
    canonical: (value) => value,
    fromApi: (value) => (typeof value === 'string' && value !== '' ? value : undefined),
    format: (value) => JSON.stringify(value),
  });
}

/** A list of strings whose order matters (header values are sent in order). */
export function strings(options: Common<readonly string[]>): FieldFactory<readonly string[]> {
  return (name) => ({
    ...base(options, name),
    schema: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    canonical: (value) => [...value],
    fromApi: (value) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...(value as string[])] : undefined),
    format: (value) => `[${value.map((v) => JSON.stringify(v)).join(', ')}]`,
  });
}

/** Canonical equality of two field values. */
export function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return a === b;
}
