/**
 * A rule scope written as a URL (`url: https://shop.example.com/api/v1/search.json`),
 * expanded to the service's own conditions exactly as its console stores a
 * URL pattern (the provider's examples of pattern and stored conditions):
 *
 * - a scheme, when given: `[scheme]` equal (`http` or `https`);
 * - the host, when given: `[header, HOST]` iequal, lower-cased;
 * - each directory segment: `[path, i]` equal; a `*` segment is any one
 *   segment (no condition at its index);
 * - the last segment, split at the first dot (`a.tar.gz` is `a` + `tar.gz`):
 *   `name` is `action_name` equal and `action_ext` absent; `name.ext` both
 *   equal; `name.*` the name only (any extension); `*` any name **without**
 *   an extension (`action_ext` absent alone); `*.*` any name (neither);
 *   `*.ext` any name with that extension (`action_ext` equal alone);
 * - `[path, n]` absent closing the chain (n directories), except after `**`,
 *   which is any number of segments: `/a/**\/*` is below `a`, no extension;
 *   `/a/**\/*.*` (or `/a/**`) below `a`, anything; `/**\/*.*` every path.
 * - `/` is `action_name` "", `action_ext` absent and `[path, 0]` absent.
 *
 * What the pattern means when it reads like something else (a regex, a glob
 * inside a name) or matches every path comes back as warnings.
 */
import { splitAction } from '../model/request-path.js';

export interface UrlCondition {
  readonly point: readonly (string | number)[];
  readonly type: 'equal' | 'iequal' | 'absent';
  readonly value: string | null;
}

export type UrlScope =
  | { readonly ok: true; readonly conditions: readonly UrlCondition[]; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** The schemes the service's `[scheme]` point holds. */
const SCHEMES: readonly string[] = ['http', 'https'];
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d+)?$/i;
/** Any number of segments. */
const ANY_DEPTH = '**';
/** Any one segment; as a name, any name. */
const ANY = '*';

const equal = (point: readonly (string | number)[], value: string): UrlCondition => ({ point, type: 'equal', value });
const absent = (point: readonly (string | number)[]): UrlCondition => ({ point, type: 'absent', value: null });

export function urlScope(url: string): UrlScope {
  let text = url.trim();
  const conditions: UrlCondition[] = [];
  const scheme = SCHEME.exec(text);
  if (scheme) {
    const name = (scheme[1] as string).toLowerCase();
    if (!SCHEMES.includes(name)) return { ok: false, message: `url "${url}": the service's [scheme] condition holds ${SCHEMES.join(' or ')}, not "${name}"` };
    conditions.push(equal(['scheme'], name));
    text = text.slice(scheme[0].length);
  }
  const slash = text.indexOf('/');
  if (slash < 0) return { ok: false, message: `url "${url}" has no path: write at least "/" after the host (shop.example.com/)` };
  const host = text.slice(0, slash);
  const path = text.slice(slash);
  if (/[?#]/.test(path)) return { ok: false, message: `url "${url}" has a query or fragment, which a scope cannot name: write the path only` };
  if (host !== '' && !HOST.test(host)) return { ok: false, message: `url "${url}": "${host}" is not a host name` };
  if (host !== '') conditions.push({ point: ['header', 'HOST'], type: 'iequal', value: host.toLowerCase() });

  const segments = path.slice(1).split('/');
  if (segments.length === 1 && segments[0] === '') {
    return { ok: true, conditions: [...conditions, equal(['action_name'], ''), absent(['action_ext']), absent(['path', 0])], warnings: [] };
  }
  if (segments.some((segment) => segment === '')) return { ok: false, message: `url "${url}" has an empty segment ("//" or a trailing "/")` };
  // `/a/**` is `/a/**/*.*`: below `a`, anything.
  if (segments[segments.length - 1] === ANY_DEPTH) segments.push(`${ANY}.${ANY}`);
  const last = segments[segments.length - 1] as string;
  let directories = segments.slice(0, -1);
  const depth = directories.indexOf(ANY_DEPTH);
  if (depth >= 0 && depth !== directories.length - 1) {
    return { ok: false, message: `url "${url}": "**" may only come last, or right before the last segment (/api/**/*.json)` };
  }
  const anyDepth = depth >= 0;
  if (anyDepth) directories = directories.slice(0, -1);

  const warnings = segments.flatMap((segment, index) => literalWarnings(url, segment, index === segments.length - 1));
  directories.forEach((segment, index) => { if (segment !== ANY) conditions.push(equal(['path', index], segment)); });
  const { name, extension } = splitAction(last);
  if (name !== ANY) conditions.push(equal(['action_name'], name));
  if (extension === undefined) conditions.push(absent(['action_ext']));
  else if (extension !== ANY) conditions.push(equal(['action_ext'], extension));
  if (!anyDepth) conditions.push(absent(['path', directories.length]));
  if (!conditions.some((condition) => condition.point[0] !== 'header' && condition.point[0] !== 'scheme')) {
    warnings.push(`url "${url}" matches every path${host === '' ? '' : ` of ${host.toLowerCase()}`}: ${host === '' && !scheme ? 'the rule applies to every request, as if the url were left out' : 'only the host and scheme are conditions'}`);
  }
  return { ok: true, conditions, warnings };
}

/**
 * A segment that reads like a regex or a glob inside a name is compared as
 * text by the service: `.*` is the name "" with any extension, `a*b` the
 * name "a*b". Said, with what it does mean.
 */
function literalWarnings(url: string, segment: string, isLast: boolean): string[] {
  if (segment === ANY || segment === ANY_DEPTH) return [];
  if (segment === '.*') {
    const means = isLast ? 'the name "" with any extension (a file like "/.env")' : 'a directory named ".*"';
    return [`url "${url}": ".*" is not a regex here: it is ${means}. For every path write /**/*.*; for everything below /a, /a/**`];
  }
  const { name, extension } = splitAction(segment);
  const parts = isLast ? [name, ...(extension === undefined ? [] : [extension])] : [segment];
  if (parts.every((part) => part === ANY || !part.includes(ANY))) return [];
  return [`url "${url}": "*" inside "${segment}" is compared as the character "*": only a whole segment (*), a whole name (*.json) or a whole extension (report.*) is a pattern`];
}
