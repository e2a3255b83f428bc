/** The service's route table: path → method → handler, with 404 and 405 in the envelope. */
import { listApplications } from './applications/handlers.js';
import type { Handler } from './core.js';
import { listAttacks, listVulns, pageAttacks } from './demo/handlers.js';
import { HttpError } from './envelope.js';
import { actionByHit, listHits } from './hits/handlers.js';
import { createAccessRules, deleteGroups, listGroups } from './ip/groups.js';
import { createIpRules, deleteIpRules, listIpRules } from './ip/handlers.js';
import { listCredentialConfigs } from './rules/credential-configs.js';
import { createHint, deleteHints, listActions, listHints } from './rules/handlers.js';
import { updateHint } from './rules/update.js';

const ROUTES: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  '/v1/objects/attack': { POST: listAttacks },
  '/v2/objects/attack': { POST: pageAttacks },
  '/v1/objects/vuln': { POST: listVulns },
  '/v1/objects/pool': { POST: listApplications },
  '/v1/objects/hint': { POST: listHints },
  '/v1/objects/hint/create': { POST: createHint },
  '/v1/objects/hint/delete': { POST: deleteHints },
  '/v1/objects/action': { POST: listActions },
  '/v1/objects/hit': { POST: listHits },
  '/v1/objects/action/by_hit': { POST: actionByHit },
  '/v4/ip_rules': { GET: listIpRules, POST: createIpRules, DELETE: deleteIpRules },
  '/v3/hint/{id}': { PUT: updateHint },
  '/v1/blocklist/clients/{clientid}/groups': { GET: listGroups, DELETE: deleteGroups },
  '/v1/blocklist/clients/{clientid}/access_rules': { POST: createAccessRules },
  '/v4/clients/{clientid}/credential_stuffing/configs': { GET: listCredentialConfigs },
};

/** Routes with `{name}` segments, as matchers; a segment matches any non-empty text without `/`. */
const PATTERNS = Object.keys(ROUTES)
  .filter((pattern) => pattern.includes('{'))
  .map((pattern) => {
    const names: string[] = [];
    const source = pattern.replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { pattern, names, regex: new RegExp(`^${source}$`) };
  });

export interface ResolvedRoute {
  readonly handler: Handler;
  readonly params: Readonly<Record<string, string>>;
}

export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The route's pattern (`/v3/hint/{id}`) for a path with parameters, else the path itself. */
export function routePattern(path: string): string {
  const normalized = normalizePath(path);
  if (ROUTES[normalized]) return normalized;
  return PATTERNS.find((p) => p.regex.test(normalized))?.pattern ?? normalized;
}

export function resolveRoute(method: string, path: string): ResolvedRoute {
  const normalized = normalizePath(path);
  const pattern = routePattern(normalized);
  const methods = ROUTES[pattern];
  if (!methods) throw new HttpError(404, 'Not found');
  const handler = methods[method];
  if (!handler) throw new HttpError(405, 'Method not allowed', { allow: Object.keys(methods).join(', ') });
  const matcher = PATTERNS.find((p) => p.pattern === pattern);
  const values = matcher?.regex.exec(normalized)?.slice(1) ?? [];
  const params = Object.fromEntries(matcher?.names.map((name, i) => [name, values[i] ?? '']) ?? []);
  return { handler, params };
}
