/**
 * The conditions the service itself gives a hit (`action/by_hit`), written
 * from its documentation: the host (`iequal`), the path segment by segment,
 * the last one as `action_name` and `action_ext` (split at the first dot),
 * and an `absent` closing the chain; a hit across paths (`[multiple]`) is
 * scoped to its host alone. On an account with applications the answer also
 * carries `instance`, the hit's `poolid` (the default application's -1
 * included), as the service's notes say it may.
 */
import type { HitRecord } from './records.js';

export interface ScopeCondition {
  point: (string | number)[];
  type: 'equal' | 'iequal' | 'absent';
  value: string | null;
}

export function serviceScope(hit: Pick<HitRecord, 'domain' | 'path' | 'poolid'>): ScopeCondition[] {
  const instance: ScopeCondition[] = hit.poolid === 0 ? [] : [{ point: ['instance'], type: 'equal', value: String(hit.poolid) }];
  return [...instance, ...pathScope(hit)];
}

function pathScope(hit: Pick<HitRecord, 'domain' | 'path'>): ScopeCondition[] {
  const host: ScopeCondition = { point: ['header', 'HOST'], type: 'iequal', value: hit.domain.toLowerCase() };
  if (hit.path === '[multiple]') return [host];
  const segments = hit.path.replace(/^\//, '').split('/');
  if (segments.length === 1 && segments[0] === '') {
    return [host, { point: ['action_name'], type: 'equal', value: '' }, { point: ['path', 0], type: 'absent', value: null }];
  }
  const last = segments.pop() ?? '';
  const conditions: ScopeCondition[] = [host];
  segments.forEach((segment, index) => conditions.push({ point: ['path', index], type: 'equal', value: segment }));
  const dot = last.indexOf('.');
  if (dot >= 0) {
    conditions.push({ point: ['action_name'], type: 'equal', value: last.slice(0, dot) });
    conditions.push({ point: ['action_ext'], type: 'equal', value: last.slice(dot + 1) });
  } else {
    conditions.push({ point: ['action_name'], type: 'equal', value: last });
    conditions.push({ point: ['action_ext'], type: 'absent', value: null });
  }
  conditions.push({ point: ['path', segments.length], type: 'absent', value: null });
  return conditions;
}
