/**
 * Small request-field validators. Each throws the service's 400 shape naming the
 * field, so handlers read as a list of fields and their rules.
 */
import { invalid } from './envelope.js';

type Path = string | readonly string[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireRecord(value: unknown, path: Path): Record<string, unknown> {
  if (value === undefined || value === null) throw invalid(path, "can't be blank");
  if (!isRecord(value)) throw invalid(path, 'must be an object');
  return value;
}

export function isPositiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

export function isNonNegativeInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function requirePositiveInt(value: unknown, path: Path): number {
  if (value === undefined || value === null) throw invalid(path, "can't be blank");
  if (!isPositiveInt(value)) throw invalid(path, 'must be a positive integer');
  return value;
}

/** A scalar or an array of positive integers (the service takes both in filters). */
export function requireIdList(value: unknown, path: Path): number[] {
  if (value === undefined || value === null) throw invalid(path, "can't be blank");
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw invalid(path, "can't be blank");
  for (const item of list) if (!isPositiveInt(item)) throw invalid(path, 'must be positive integers');
  return list as number[];
}

export function optionalIdList(value: unknown, path: Path): number[] | undefined {
  return value === undefined || value === null ? undefined : requireIdList(value, path);
}

export function optionalBool(value: unknown, path: Path, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalid(path, 'must be a boolean');
  return value;
}

export function requireBool(value: unknown, path: Path): boolean {
  if (typeof value !== 'boolean') throw invalid(path, 'must be a boolean');
  return value;
}

export function optionalString(value: unknown, path: Path): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  return value;
}

export function requireString(value: unknown, path: Path): string {
  if (value === undefined || value === null || value === '') throw invalid(path, "can't be blank");
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  return value;
}

/** `offset`/`limit` style integers with a default and an upper bound. */
export function optionalCount(
  value: unknown,
  path: Path,
  options: { fallback: number; min?: number; max?: number },
): number {
  if (value === undefined || value === null) return options.fallback;
  const min = options.min ?? 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalid(path, `must be an integer greater than or equal to ${min}`);
  }
  if (options.max !== undefined && value > options.max) {
    throw invalid(path, `must be less than or equal to ${options.max}`);
  }
  return value;
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: Path): T {
  if (value === undefined || value === null || value === '') throw invalid(path, "can't be blank");
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(path, `must be one of: ${allowed.join(', ')}`);
  }
  return value as T;
}
