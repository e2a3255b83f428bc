/**
 * Which IP-list API a run reads and writes: `--ip-api` (or RAMPART_IP_API)
 * when given, else the policies' `ip_api:` (every file that names it agrees:
 * policy/validate.ts), else v4. A policy that names another API than the
 * one given is refused: one account's lists never go through both in a run.
 */
import { UsageError } from '../errors.js';
import type { ServiceApi } from '../api/service.js';
import { DEFAULT_IP_API } from '../model/ip-list-apis.js';
import type { DesiredState } from '../model/state.js';

export function useIpApiOf(api: ServiceApi, desired: Pick<DesiredState, 'ipApi'>): void {
  const named = desired.ipApi;
  if (api.ipApiGiven) {
    if (named && named.ipApi !== api.ipApi) {
      throw new UsageError(`--ip-api ${api.ipApi} (or RAMPART_IP_API) is given, but ${named.file}:${named.line}:${named.col} says ip_api: ${named.ipApi}: ` +
        'a run reads and writes the IP lists through one API; make them agree');
    }
    return;
  }
  // A daemon keeps its connection: policies that no longer name one go back to the default.
  api.ipApi = named?.ipApi ?? DEFAULT_IP_API;
}
