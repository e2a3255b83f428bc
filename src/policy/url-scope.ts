/**
 * A rule scope written as a URL (`url: shop.example.com/api/v1/search.json`),
 * expanded to the service's own conditions the way its console expands one,
 * with the split `tune` uses for a hit's path:
 *
 * - the host, when given: `[header, HOST]` iequal, lower-cased;
 * - each directory segment: `[path, i]` equal;
 * - the last segment: `action_name`, and `action_ext` split at the first dot
 *   (`a.tar.gz` is `a` + `tar.gz`), or `action_ext` absent without a dot;
 * - `[path, n]` absent, so a longer path does not match.
 *
 * The console's patterns: `*` is any one segment (no condition at its place),
 * or as the last segment any name; `name.*` is any extension; `**` at the end
 * is any number of segments (no closing `absent`); `/**\/*.*` is every path. `/`
 * is `action_name` "", `action_ext` absent and `[path, 0]` absent.
 */
import { splitAction } from '../model/request-path.js';

export interface UrlCondition {
  readonly point: readonly (string | number)[];
  readonly type: 'equal' | 'iequal' | 'absent';
  readonly value: string | null;
}

export type UrlScope = { readonly ok: true; readonly conditions: readonly UrlCondition[] } | { readonly ok: false; readonly message: string };

const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d+)?$/i;

export function urlScope(url: string): UrlScope {
  const text = url.trim().replace(/^[a-z]+:\/\//i, '');
  const slash = text.indexOf('/');
  if (slash < 0) return { ok: false, message: `url "${url}" has no path: write at least "/" after the host (shop.example.com/)` };
  const host = text.slice(0, slash);
  const path = text.slice(slash);
  if (/[?#]/.test(path)) return { ok: false, message: `url "${url}" has a query or fragment, which a scope cannot name: write the path only` };
  if (host !== '' && !HOST.test(host)) return { ok: false, message: `url "${url}": "${host}" is not a host name` };
  const conditions: UrlCondition[] = host === '' ? [] : [{ point: ['header', 'HOST'], type: 'iequal', value: host.toLowerCase() }];
  const segments = path.slice(1).split('/');
  if (segments.length === 1 && segments[0] === '') {
    return { ok: true, conditions: [...conditions, { point: ['action_name'], type: 'equal', value: '' }, { point: ['action_ext'], type: 'absent', value: null }, { point: ['path', 0], type: 'absent', value: null }] };
  }
  if (segments.some((segment) => segment === '')) return { ok: false, message: `url "${url}" has an empty segment ("//" or a trailing "/")` };
  const last = segments[segments.length - 1] as string;
  const directories = segments.slice(0, -1);
  const anyDepth = last === '**' || (directories.includes('**'));
  if (directories.includes('**') && !(directories.length === 1 && directories[0] === '**' && last === '*.*' && segments.length === 2)) {
    return { ok: false, message: `url "${url}": "**" may only end a pattern (/api/**), or be /**/*.* for every path` };
  }
  if (directories.length === 1 && directories[0] === '**') return { ok: true, conditions };
  if (last === '**') {
    directories.forEach((segment, index) => { if (segment !== '*') conditions.push({ point: ['path', index], type: 'equal', value: segment }); });
    return { ok: true, conditions };
  }
  directories.forEach((segment, index) => { if (segment !== '*') conditions.push({ point: ['path', index], type: 'equal', value: segment }); });
  const { name, extension } = splitAction(last);
  if (name !== '*') conditions.push({ point: ['action_name'], type: 'equal', value: name });
  if (extension === undefined) {
    if (name !== '*') conditions.push({ point: ['action_ext'], type: 'absent', value: null });
  } else if (extension !== '*') conditions.push({ point: ['action_ext'], type: 'equal', value: extension });
  if (!anyDepth) conditions.push({ point: ['path', directories.length], type: 'absent', value: null });
  return { ok: true, conditions };
}
