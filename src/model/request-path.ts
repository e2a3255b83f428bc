/**
 * How the service reads a request's path into the points a scope tests (its
 * request model, which `tune`, `url:` scopes and `--impact` share): every
 * segment but the last is `[path, i]`; the last one is `action_name`, with
 * `action_ext` split at the FIRST dot (`a.tar.gz` is `a` + `tar.gz`), absent
 * without a dot. `/` alone is `action_name` "" and no segment.
 */

export interface RequestPath {
  /** The segments before the last one: `[path, 0]`, `[path, 1]`, … */
  readonly directories: readonly string[];
  /** `action_name`. */
  readonly name: string;
  /** `action_ext`; undefined when the last segment has no dot. */
  readonly extension?: string;
}

/** The service's record of an attack across several paths: no path of its own. */
export const MULTIPLE_PATHS = '[multiple]';

/** `search.json` → `search` + `json`; `a.tar.gz` → `a` + `tar.gz`; `login` → `login`. */
export function splitAction(segment: string): { readonly name: string; readonly extension?: string } {
  const dot = segment.indexOf('.');
  return dot < 0 ? { name: segment } : { name: segment.slice(0, dot), extension: segment.slice(dot + 1) };
}

/** A path as the service reads it, or undefined for an attack across paths (`[multiple]`). */
export function splitPath(path: string): RequestPath | undefined {
  if (path === MULTIPLE_PATHS) return undefined;
  const segments = path.replace(/^\//, '').split('/');
  const last = segments.pop() ?? '';
  return { directories: segments, ...splitAction(last) };
}
