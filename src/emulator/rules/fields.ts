/**
 * Field kinds of the rule catalogue and their checks. A check takes the value
 * as sent and returns the value stored, or throws the service's 400 naming the
 * field. "Missing" is undefined or null (and an empty string): a required field
 * missing is "can't be blank", as the service says; a literal 0 is a value.
 */
import { invalid } from '../envelope.js';
import { regexCompiles } from './regex.js';

interface Common {
  /** Missing on create → 400 "can't be blank". */
  readonly required?: boolean;
  /** Stored when an optional field is missing. Without one, a missing optional field is not stored. */
  readonly default?: unknown;
}

export type FieldSpec = Common & (
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'int'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'bool' }
  | { readonly kind: 'text' }
  | { readonly kind: 'texts' }
  | { readonly kind: 'regex' }
  /** The id of an existing regex rule of the same account (checked by the caller, which knows the state). */
  | { readonly kind: 'regex_ref' }
  /** A nested value (an object, a list of objects, a point): its own check returns what is stored. */
  | { readonly kind: 'nested'; check(value: unknown, field: string): unknown }
);

export const oneOf = (values: readonly string[], more: Common = {}): FieldSpec => ({ kind: 'enum', values, ...more });
export const int = (range: { min?: number; max?: number }, more: Common = {}): FieldSpec => ({ kind: 'int', ...range, ...more });
export const bool = (more: Common = {}): FieldSpec => ({ kind: 'bool', ...more });
export const text = (more: Common = {}): FieldSpec => ({ kind: 'text', ...more });
export const texts = (more: Common = {}): FieldSpec => ({ kind: 'texts', ...more });
export const regex = (more: Common = {}): FieldSpec => ({ kind: 'regex', ...more });
export const regexRef = (more: Common = {}): FieldSpec => ({ kind: 'regex_ref', ...more });
export const nested = (check: (value: unknown, field: string) => unknown, more: Common = {}): FieldSpec => ({ kind: 'nested', check, ...more });

export function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The stored value of a present field; throws 400 on `field` when it is not acceptable. */
export function checkField(spec: FieldSpec, field: string, value: unknown): unknown {
  if (isMissing(value)) throw invalid(field, "can't be blank");
  switch (spec.kind) {
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) {
        throw invalid(field, `must be one of: ${spec.values.join(', ')}`);
      }
      return value;
    case 'int':
    case 'regex_ref':
      return checkInt(field, value, spec.kind === 'int' ? spec : { min: 1 });
    case 'bool':
      if (typeof value !== 'boolean') throw invalid(field, 'must be a boolean');
      return value;
    case 'text':
      if (typeof value !== 'string') throw invalid(field, 'must be a string');
      return value;
    case 'texts':
      if (!Array.isArray(value) || value.length === 0) throw invalid(field, "can't be blank");
      if (!value.every((v) => typeof v === 'string' && v !== '')) throw invalid(field, 'must be non-empty strings');
      return [...value];
    case 'regex':
      if (typeof value !== 'string') throw invalid(field, 'must be a string');
      if (!regexCompiles(value)) throw invalid(field, 'is not a valid regular expression');
      return value;
    case 'nested':
      return spec.check(value, field);
  }
}

export function checkInt(field: string | readonly string[], value: unknown, range: { min?: number; max?: number }): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(field, 'must be an integer');
  if (range.min !== undefined && value < range.min) throw invalid(field, `must be greater than or equal to ${range.min}`);
  if (range.max !== undefined && value > range.max) throw invalid(field, `must be less than or equal to ${range.max}`);
  return value;
}
