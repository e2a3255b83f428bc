/**
 * The wire, the other way: the service's answers that are not plain data, as
 * its documentation and its own clients show them, and how Rampart reads each
 * (the error code a script matches on, or the result it goes on with). Pinned
 * in test/fixtures/wire/answer-*.json beside their evidence, as the requests
 * are (wire.test.ts). A real ApiClient reads each answer from a server that
 * sends exactly the pinned bytes.
 *
 * `RAMPART_WIRE_UPDATE=1 npx vitest run test/integration/wire` rewrites the
 * pinned readings (never the answers nor the evidence): review the diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import { RampartError } from '../../../src/errors.js';
import { TEST_TOKEN } from '../../helpers/emulator.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'wire');
const UPDATE = process.env.RAMPART_WIRE_UPDATE === '1';

/** An answer of the service to one call, and how Rampart reads it. */
interface AnswerFixture {
  readonly what: string;
  readonly answer: { readonly http: number; readonly body: unknown };
  /** `{"error": code, "message": …}` or `{"result": …}`. */
  readonly reads_as: unknown;
  readonly evidence: readonly string[];
}

const CASES: { name: string; call: (api: ServiceApi) => Promise<unknown> }[] = [
  { name: 'update-error-in-http-200', call: (api) => api.updateHint(11, { variativity_disabled: true, comment: 'x', title: '', active: true, set: '', mode: 'blocking' }) },
  { name: 'ip-create-already-exists', call: (api) => api.createIpRule({ clientid: 10042, force: false, ip_rule: { list: 'black', rule_type: 'ip_range', subnet: '192.0.2.1/32', pools: [0], expired_at: 4102444800, reason: 'x' } }) },
  { name: 'create-mode-reaction-mismatch', call: (api) => api.createHint({ clientid: 10042, type: 'brute', action: [], validated: false, variativity_disabled: true, mode: 'monitoring', reaction: { block_by_ip: 600 } }) },
  { name: 'hint-delete-nothing', call: async (api) => [...await api.deleteHints(10042, [11, 12])] },
  { name: 'update-counter', call: (api) => api.updateHint(11, { variativity_disabled: true, comment: 'x', title: '', active: true, set: '' }) },
];

let server: Server;
let url: string;
let answer: { http: number; body: unknown } = { http: 200, body: null };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.http, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise((resolve) => server.close(resolve)));

/** How Rampart reads the answer: the error's code and message (without the host's port), or the call's result. */
async function reading(call: (api: ServiceApi) => Promise<unknown>): Promise<unknown> {
  const http = new ApiClient({ baseUrl: url, credentials: { token: TEST_TOKEN } });
  try {
    return { result: await call(new ServiceApi(http)) };
  } catch (error) {
    if (!(error instanceof RampartError)) throw error;
    return { error: error.code, message: error.message.replace(/127\.0\.0\.1:\d+/g, 'HOST') };
  } finally {
    await http.close();
  }
}

describe('the wire: answers', () => {
  for (const c of CASES) {
    it(`${c.name}`, async () => {
      const path = join(FIXTURES, `answer-${c.name}.json`);
      const fixture = JSON.parse(readFileSync(path, 'utf8')) as AnswerFixture;
      answer = fixture.answer;
      const read = await reading(c.call);
      if (UPDATE) {
        writeFileSync(path, `${JSON.stringify({ ...fixture, reads_as: read }, null, 2)}\n`);
        return;
      }
      expect(read, `answer-${c.name}: how Rampart reads the answer changed`).toEqual(fixture.reads_as);
      expect(fixture.evidence.length).toBeGreaterThan(0);
      for (const line of fixture.evidence) expect(line).toMatch(/^(?:[\w.-]+\/[\w.-]+ \S+ .+ @[0-9a-f]{7,40}: .+|no public source: .+|the service's notes: .+)$/);
    });
  }
});
