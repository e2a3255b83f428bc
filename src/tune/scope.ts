/**
 * The scope a false-positive rule gets from a hit, as the service scopes it:
 * the host (`iequal`), every path segment but the last (`[path, i]` equal),
 * the last one as `action_name` and `action_ext` (split at the FIRST dot, as
 * the service does: `a.tar.gz` is `a` + `tar.gz`), or `action_ext` absent,
 * and `[path, n]` absent closing the chain. `/` alone is `action_name` "" and
 * `[path, 0]` absent; a hit across paths (`[multiple]`) is scoped to its host.
 * The application is not part of it: the policy file's `application` adds it.
 */
import { canonicalCondition } from '../model/canonical.js';
import { sortConditions, type Condition } from '../model/rule.js';
import type { Hit } from '../hits/read.js';
import { splitPath } from '../model/request-path.js';

export function hitScope(hit: Pick<Hit, 'domain' | 'path'>): Condition[] {
  const conditions: { point: (string | number)[]; type: string; value?: string | null }[] = [
    { point: ['header', 'HOST'], type: 'iequal', value: hit.domain },
  ];
  const path = splitPath(hit.path);
  if (path && path.directories.length === 0 && path.name === '' && path.extension === undefined) {
    conditions.push({ point: ['action_name'], type: 'equal', value: '' }, { point: ['path', 0], type: 'absent' });
  } else if (path) {
    path.directories.forEach((segment, index) => conditions.push({ point: ['path', index], type: 'equal', value: segment }));
    conditions.push({ point: ['action_name'], type: 'equal', value: path.name });
    conditions.push(path.extension === undefined ? { point: ['action_ext'], type: 'absent' } : { point: ['action_ext'], type: 'equal', value: path.extension });
    conditions.push({ point: ['path', path.directories.length], type: 'absent' });
  }
  return sortConditions(conditions.map(canonicalCondition));
}

/** The service's scope for a hit: its conditions without the application, and the application it names, if any. */
export interface ServiceScope {
  readonly conditions: readonly Condition[];
  /** The `instance` condition's value (`"7"`, `"-1"`), when the answer carries one. */
  readonly instance?: string;
}

/**
 * The service's answer for a hit (`action/by_hit`), canonical. On accounts
 * with applications it may carry `instance`: it is kept apart, so the scope is
 * compared both without it and, where given, with it.
 */
export function serviceScope(listed: readonly unknown[]): ServiceScope {
  let instance: string | undefined;
  const conditions = sortConditions(listed.flatMap((raw) => {
    const c = raw as { point?: unknown; type?: unknown; value?: unknown };
    if (!Array.isArray(c.point) || typeof c.type !== 'string') return [];
    const condition = canonicalCondition({ point: c.point as (string | number)[], type: c.type, value: (c.value ?? null) as string | null });
    if (condition.point[0] !== 'instance') return [condition];
    instance = condition.value ?? undefined;
    return [];
  }));
  return instance === undefined ? { conditions } : { conditions, instance };
}
