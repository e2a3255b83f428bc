/**
 * The reads `rampart doctor` tries for each client, one small call each, and
 * the right and the commands each one stands for. Only reads: a write cannot
 * be tried without changing the account.
 */
import type { ServiceApi } from '../api/service.js';
import { describeBody } from '../api/errors-from-response.js';
import { ApiAuthError, isRampartError } from '../errors.js';
import { standardHitFilter } from '../hits/read.js';
import { ipBackendOf } from '../live/ip-backends/index.js';

export interface AccessCheck {
  /** What is read, as the lines say it. */
  readonly read: string;
  readonly route: string;
  /** The route on this connection, where it depends on it (the IP-list API). */
  readonly routeOf?: (api: ServiceApi) => string;
  /** The right the token needs for it. */
  readonly right: string;
  /** The commands that make this read. */
  readonly neededBy: readonly string[];
  run(api: ServiceApi, client: number, signal: AbortSignal): Promise<unknown>;
}

const RECONCILE = ['plan', 'apply', 'run', 'adopt', 'export'];
const DAY_S = 86_400;

export const ACCESS_CHECKS: readonly AccessCheck[] = [
  {
    read: 'rules', route: 'POST /v1/objects/hint', right: 'read rules', neededBy: RECONCILE,
    run: (api, client, signal) => api.listHints(client, 0, 1, { signal }),
  },
  {
    read: 'credential-stuffing rules', route: 'GET /v4/clients/{clientid}/credential_stuffing/configs', right: 'read rules', neededBy: RECONCILE,
    run: (api, client, signal) => api.listCredentialRules(client, { signal }),
  },
  {
    // Through the IP-list API the run is set to (--ip-api): the route named is v4's or the groups API's.
    read: 'IP lists', route: 'GET /v4/ip_rules', right: 'read IP lists', neededBy: RECONCILE,
    routeOf: (api) => (api.ipApi === 'groups' ? 'GET /v1/blocklist/clients/{clientid}/groups' : 'GET /v4/ip_rules'),
    run: (api, client, signal) => ipBackendOf(api).probe(api, client, { signal }),
  },
  {
    // Without it the plan only warns: the application ids the policies name go unchecked.
    read: 'applications', route: 'POST /v1/objects/pool', right: 'read applications', neededBy: ['plan (application check)'],
    run: (api, client, signal) => api.listApplications(client, 0, 1, { signal }),
  },
  {
    read: 'hits', route: 'POST /v1/objects/hit', right: 'read hits (attacks)', neededBy: ['tune', 'plan --impact', 'apply --impact'],
    run: (api, client, signal) => {
      const now = Math.floor(Date.now() / 1000);
      return api.listHits(client, standardHitFilter({ from: now - DAY_S, to: now }), 0, 1, { signal });
    },
  },
];

export interface CheckResult {
  readonly client: number;
  readonly check: AccessCheck;
  /** Undefined when the read worked. */
  readonly error?: CheckError;
}

export interface CheckError {
  readonly code: string;
  readonly message: string;
  /** A 403: the token is accepted but lacks this check's right (a 401 refuses the token itself). */
  readonly missingRight?: string;
  /** With `missingRight`: what the service answered (`403: …`), the message's generic words left out. */
  readonly answered?: string;
}

/** Every check for every client, at once; a failure is a result, never a throw. */
export async function runAccessChecks(api: ServiceApi, clients: readonly number[], signal: AbortSignal): Promise<CheckResult[]> {
  const checks = ACCESS_CHECKS.map((check) => (check.routeOf ? { ...check, route: check.routeOf(api) } : check));
  return Promise.all(clients.flatMap((client) => checks.map(async (check): Promise<CheckResult> => {
    try {
      await check.run(api, client, signal);
      return { client, check };
    } catch (error) {
      const code = isRampartError(error) ? error.code : 'internal';
      const missing = error instanceof ApiAuthError && !error.tokenRejected
        ? { missingRight: check.right, answered: [error.httpStatus ?? 403, describeBody(error.body)].filter(Boolean).join(': ') }
        : {};
      return { client, check, error: { code, message: error instanceof Error ? error.message : String(error), ...missing } };
    }
  })));
}
