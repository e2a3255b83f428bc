/**
 * Errors a person can act on: a one-shot command against a host it cannot
 * reach fails within seconds naming the host and the cause; 401/403 name the
 * client and where the policies declare it; an HTML page is an `api_protocol`
 * error with its first line and the setting to check; no stack traces. Each
 * case runs `plan` in process against a real socket on port 0: the emulator, a
 * tiny HTTP(S) server, a `.invalid` host name (RFC 6761: never resolves).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import type { CliResult } from '../../helpers/cli.js';
import { freePort } from '../../helpers/daemon.js';
import { TEST_TOKEN, useTestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const TLS = join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
const POLICY = `version: 1
client: 4242
application: 1
ip_lists:
  deny:
    - ips: [203.0.113.9]
`;

const emulator = useTestEmulator();
let policies: PolicyDir | undefined;
let server: Server | undefined;
afterEach(async () => {
  await policies?.cleanup();
  policies = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function plan(url: string, env: Record<string, string | undefined> = {}, extra: string[] = []): Promise<CliResult> {
  policies ??= await policyDir({ 'shop.yaml': POLICY });
  return runCliInProcess(['plan', '--policies', 'policies', '--api-url', url, ...extra], { cwd: policies.root, env });
}

async function listen(created: Server): Promise<string> {
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(created.address() as AddressInfo).port}`;
}

function expectNoStack(result: CliResult): void {
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const line of result.logs) expect(JSON.stringify(line)).not.toContain('"stack"');
}

describe('a host that cannot be reached', () => {
  it('refused: fails within seconds with the real retry policy, naming host and cause, each retry line too', async () => {
    const host = `127.0.0.1:${await freePort()}`;
    // The default backoff (1 s, 2 s, ...), not the tests' fast one: this is the timing a person sees.
    const result = await plan(`http://${host}`, { RAMPART_RETRY_BASE_MS: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`rampart: cannot connect to ${host} \\(.+\\): connection refused.*ECONNREFUSED.*--api-url.*\\[api_network\\]`));
    const retries = result.logs.filter((line) => line.msg === 'retrying an API call');
    // The six listings of the one client (rules, credential-stuffing rules, three IP lists, applications) each retry at most twice before the read gives up.
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.length).toBeLessThanOrEqual(6 * 2);
    for (const line of retries) expect(line).toMatchObject({ host, code: 'api_network', reason: expect.stringContaining('connection refused') });
    // "Within seconds" as the policy decides it, not as the clock of a loaded machine shows it (10.75 s once):
    // the default backoff (the first wait 0.5 to 1 s, the second 1 to 2 s) and no third wait, which would end
    // past the 3 s a one-shot command gives a host it cannot reach. So no call waits more than 3 s in all.
    for (const line of retries) {
      const ceiling = 1000 * 2 ** ((line.attempt as number) - 1);
      expect([1, 2]).toContain(line.attempt);
      expect(line.delayMs).toBeGreaterThanOrEqual(ceiling / 2);
      expect(line.delayMs).toBeLessThanOrEqual(ceiling);
    }
    expectNoStack(result);
  });

  it('a host name DNS does not know: named, with the cause', async () => {
    const result = await plan('https://api.rampart-test.invalid');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rampart: cannot connect to api\.rampart-test\.invalid \(.+\): DNS .*(ENOTFOUND|EAI_AGAIN).*\[api_network\]/);
    expectNoStack(result);
  });

  it('a certificate the client does not trust: api_tls at once, never retried', async () => {
    const host = await listen(createHttpsServer({ key: readFileSync(join(TLS, 'key.pem')), cert: readFileSync(join(TLS, 'cert.pem')) }, (_req, res) => res.end('{}')));
    const result = await plan(`https://${host}`);
    expect(result.code).toBe(1);
    // Node's own words, then its code: Node.js 26 adds advice of its own (`--use-system-ca`) to them.
    expect(result.stderr).toMatch(new RegExp(`rampart: TLS handshake with ${host} failed during .+: self-signed certificate[^\\n(]* \\(DEPTH_ZERO_SELF_SIGNED_CERT\\); the certificate is not trusted here.*NODE_EXTRA_CA_CERTS \\[api_tls\\]`));
    expect(result.logs.filter((line) => line.msg === 'retrying an API call')).toEqual([]);
    expectNoStack(result);
  });

  it('https:// to a plain-HTTP port: says the port speaks HTTP', async () => {
    const host = await listen(createHttpServer((_req, res) => res.end('{}')));
    const result = await plan(`https://${host}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`TLS handshake with ${host} failed.*the port answers plain HTTP, not HTTPS: check the scheme and port in --api-url \\[api_tls\\]`));
  });
});

describe('an answer that is not the API', () => {
  it.each([404, 200])('an HTML page (HTTP %i) is api_protocol with its first line, its title and the hint', async (status) => {
    const page = '<!DOCTYPE html>\n<html><head><title>Sign in - Console</title></head><body>' + 'x'.repeat(5000) + '</body></html>';
    const host = await listen(createHttpServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    }));
    const result = await plan(`http://${host}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(
      `rampart: ${host} answered (POST /v1/objects/hint|GET /v4/ip_rules) with HTTP ${status} and a body that is not JSON \\(text/html\\): `
      + 'first line "<!DOCTYPE html>", title "Sign in - Console"; check that --api-url is the API base URL .*\\[api_protocol\\]',
    ));
    expect(result.stderr).not.toContain('xxxxxxxxxx');
    expectNoStack(result);
  });

  it('a redirect names where it points', async () => {
    const host = await listen(createHttpServer((_req, res) => {
      res.writeHead(301, { location: 'https://api.example.test/' }).end();
    }));
    const result = await plan(`http://${host}`);
    expect(result.stderr).toMatch(/with HTTP 301 without the \{status, body\} envelope of the API \(a redirect to https:\/\/api\.example\.test\/: put that address in --api-url\).*\[api_protocol\]/);
  });
});

describe('401 and 403 name the client and where it is declared', () => {
  it('403: the token may not act on the client the policy names', async () => {
    const { url } = await emulator.start({ clients: [10042] });
    const result = await plan(url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rampart: the API token may not act on client 4242 \(declared at policies\/shop\.yaml:2:9\): check that id .*answered 403.*\[api_auth\]/);
    expectNoStack(result);
  });

  it('401: the token was refused, and the client is still named', async () => {
    const { url } = await emulator.start();
    const result = await plan(url, { RAMPART_API_TOKEN: 'not-the-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rampart: the API refused the token while reading client 4242 \(declared at policies\/shop\.yaml:2:9\): check the token, and that --api-url is the cloud .*answered 401.*\[api_auth\]/);
  });
});

describe('--log-level trace', () => {
  it('logs every API call with method, route, status, duration and sizes, and never the token', async () => {
    const { url, control } = await emulator.start();
    const result = await plan(url, {}, ['--log-level', 'trace']);
    expect(result.code).toBe(0);
    const calls = result.logs.filter((line) => line.msg === 'api call');
    expect(calls).toHaveLength(control.calls().length);
    for (const call of calls) {
      expect(call).toMatchObject({
        module: 'api',
        method: expect.stringMatching(/^(GET|POST)$/),
        route: expect.stringMatching(/^(POST \/v1\/objects\/(hint|pool)|GET \/v4\/ip_rules|GET \/v4\/clients\/\{clientid\}\/credential_stuffing\/configs)$/),
        status: 200,
        durationMs: expect.any(Number),
        requestBytes: expect.any(Number),
        responseBytes: expect.any(Number),
      });
    }
    expect(calls.find((call) => call.method === 'POST')?.requestBytes).toBeGreaterThan(0);
    expect(result.stderr).not.toContain(TEST_TOKEN);
  });

  it('stays silent at the default level', async () => {
    const { url } = await emulator.start();
    const result = await plan(url);
    expect(result.logs.filter((line) => line.msg === 'api call')).toEqual([]);
  });
});

describe('a right the token lacks', () => {
  it('a disable_stamp create refused 403 names the right it needs and does not advise running apply again', async () => {
    const emu = await emulator.start({ extendedToken: false });
    policies = await policyDir({
      'tuning.yaml': 'version: 1\nclient: 4242\napplication: 1\nrules:\n  - { name: s, type: disable_stamp, stamp: 7730, point: [[get, q]] }\n',
    });
    const result = await runCliInProcess(['apply', '--api-url', emu.url, '--policies', policies.dir, '--settle-timeout', '1s'], { env: { RAMPART_API_TOKEN: TEST_TOKEN } });
    expect(result.code).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toContain('the API token may not write disable_stamp rules: they need an extended admin token');
    expect(output).toContain('a retry will not help');
    expect(output).not.toContain('run apply again to converge');
  });
});
