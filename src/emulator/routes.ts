/** The service's route table: path → method → handler, with 404 and 405 in the envelope. */
import type { Handler } from './core.js';
import { listAttacks, listVulns, pageAttacks } from './demo/handlers.js';
import { HttpError } from './envelope.js';
import { createIpRules, deleteIpRules, listIpRules } from './ip/handlers.js';
import { createHint, deleteHints, listActions, listHints } from './rules/handlers.js';

const ROUTES: Readonly<Record<string, Readonly<Record<string, Handler>>>> = {
  '/v1/objects/attack': { POST: listAttacks },
  '/v2/objects/attack': { POST: pageAttacks },
  '/v1/objects/vuln': { POST: listVulns },
  '/v1/objects/hint': { POST: listHints },
  '/v1/objects/hint/create': { POST: createHint },
  '/v1/objects/hint/delete': { POST: deleteHints },
  '/v1/objects/action': { POST: listActions },
  '/v4/ip_rules': { GET: listIpRules, POST: createIpRules, DELETE: deleteIpRules },
};

export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export function resolveRoute(method: string, path: string): Handler {
  const methods = ROUTES[normalizePath(path)];
  if (!methods) throw new HttpError(404, 'Not found');
  const handler = methods[method];
  if (!handler) throw new HttpError(405, 'Method not allowed', { allow: Object.keys(methods).join(', ') });
  return handler;
}
