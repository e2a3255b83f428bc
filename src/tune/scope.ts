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

export function hitScope(hit: Pick<Hit, 'domain' | 'path'>): Condition[] {
  const conditions: { point: (string | number)[]; type: string; value?: string | null }[] = [
    { point: ['header', 'HOST'], type: 'iequal', value: hit.domain },
  ];
  if (hit.path !== '[multiple]') {
    const segments = hit.path.replace(/^\//, '').split('/');
    const last = segments.pop() ?? '';
    if (segments.length === 0 && last === '') {
      conditions.push({ point: ['action_name'], type: 'equal', value: '' }, { point: ['path', 0], type: 'absent' });
    } else {
      segments.forEach((segment, index) => conditions.push({ point: ['path', index], type: 'equal', value: segment }));
      const dot = last.indexOf('.');
      conditions.push({ point: ['action_name'], type: 'equal', value: dot < 0 ? last : last.slice(0, dot) });
      conditions.push(dot < 0 ? { point: ['action_ext'], type: 'absent' } : { point: ['action_ext'], type: 'equal', value: last.slice(dot + 1) });
      conditions.push({ point: ['path', segments.length], type: 'absent' });
    }
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
