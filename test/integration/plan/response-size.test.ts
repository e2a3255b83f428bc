/**
 * A server or proxy that answers a listing with far more than any real page (a
 * huge body, or a gzip bomb) fails the command with `api_protocol` naming the
 * route, once, without the memory of the process following the answer.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { TEST_TOKEN } from '../../helpers/emulator.js';
import { useSampleSetup } from '../apply/harness.js';

const LIST_HINTS = 'POST /v1/objects/hint';
const setup = useSampleSetup();

describe('an answer larger than the bound', () => {
  it.each([
    ['oversize', 70 * 1024 * 1024, /POST \/v1\/objects\/hint answered more than 64 MiB; refusing to read it \[api_protocol\]/],
    ['gzip-bomb', 70 * 1024 * 1024, /POST \/v1\/objects\/hint answered more than 64 MiB once unzipped; refusing to read it \[api_protocol\]/],
  ] as const)('%s: plan fails with api_protocol and does not retry', async (kind, bytes, message) => {
    const harness = await setup.start();
    harness.emulator.control.addFault({ route: LIST_HINTS, kind, bytes, count: 5 });
    const result = await harness.cli('plan', setup.policies.dir, ['--detailed-exitcode'], { timeoutMs: 30_000 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(harness.emulator.control.count(LIST_HINTS)).toBe(1);
  });

  it('the client bound is one setting, checked by the declared length too', async () => {
    const harness = await setup.start();
    const http = new ApiClient({ baseUrl: harness.emulator.url, credentials: { token: TEST_TOKEN }, maxResponseBytes: 1024 * 1024 });
    try {
      harness.emulator.control.addFault({ route: LIST_HINTS, kind: 'gzip-bomb', bytes: 2 * 1024 * 1024 });
      await expect(http.call('POST', '/v1/objects/hint', { filter: { clientid: [1] } })).rejects.toMatchObject({
        code: 'api_protocol', route: LIST_HINTS, message: expect.stringContaining('more than 1 MiB once unzipped') as unknown,
      });
      // A normal page still reads.
      await expect(http.call('POST', '/v1/objects/hint', { filter: { clientid: [1] } })).resolves.toEqual([]);
    } finally {
      await http.close();
    }
  });
});
