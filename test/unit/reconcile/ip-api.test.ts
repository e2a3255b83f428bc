/** Which IP-list API a run uses: the one given, else the policies' ip_api:, else v4; a policy that disagrees with the one given is refused. */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import { UsageError } from '../../../src/errors.js';
import { useIpApiOf } from '../../../src/reconcile/ip-api.js';

const http = {} as ApiClient;
const named = (ipApi: 'v4' | 'groups') => ({ ipApi: { client: 1, file: 'policies/a.yaml', line: 4, col: 9, ipApi } });

describe('the IP-list API of a run', () => {
  it('keeps the one given (a flag, the environment, a caller), and the policies may agree with it', () => {
    const api = new ServiceApi(http, 'groups');
    useIpApiOf(api, {});
    expect(api.ipApi).toBe('groups');
    useIpApiOf(api, named('groups'));
    expect(api.ipApi).toBe('groups');
  });

  it('refuses policies that name another, with the file:line', () => {
    expect(() => useIpApiOf(new ServiceApi(http, 'v4'), named('groups'))).toThrow(UsageError);
    expect(() => useIpApiOf(new ServiceApi(http, 'v4'), named('groups'))).toThrow(/policies\/a\.yaml:4:9 says ip_api: groups/);
  });

  it('takes the policies\' when none is given, and goes back to v4 when they stop naming one', () => {
    const api = new ServiceApi(http);
    useIpApiOf(api, named('groups'));
    expect(api.ipApi).toBe('groups');
    useIpApiOf(api, {});
    expect(api.ipApi).toBe('v4');
  });
});
