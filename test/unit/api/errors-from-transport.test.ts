import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { errorFromTransport } from '../../../src/api/errors-from-transport.js';
import { DEFAULT_RETRY_POLICY, ONE_SHOT_RETRY_POLICY, isRetryable, withRetry } from '../../../src/api/retry.js';
import { ApiError } from '../../../src/errors.js';
import { serializeError } from '../../../src/log.js';

const failure = (code: string, message = code) => Object.assign(new Error(message), { code });
const at = { method: 'GET', route: 'GET /v4/ip_rules', host: 'api.example.test' };

describe('errorFromTransport', () => {
  it.each([
    ['ECONNREFUSED', 'api_network', /cannot connect to api\.example\.test \(GET \/v4\/ip_rules\): connection refused/],
    ['ENOTFOUND', 'api_network', /cannot connect to api\.example\.test .*: DNS knows no such host name \(ENOTFOUND\)/],
    ['EAI_AGAIN', 'api_network', /DNS could not resolve the host name for now/],
    ['UND_ERR_CONNECT_TIMEOUT', 'api_timeout', /cannot connect to api\.example\.test .*no connection within the connect timeout/],
  ])('%s: never sent, unreachable, named', (code, expected, message) => {
    const error = errorFromTransport(failure(code), at);
    expect(error).toMatchObject({ code: expected, unreachable: true, mayHaveBeenApplied: false, host: 'api.example.test' });
    expect(error.message).toMatch(message);
    expect(error.message).toContain('check --api-url');
  });

  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', /not trusted here/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", /not trusted here/],
    ['CERT_HAS_EXPIRED', 'certificate has expired', /not trusted here/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', /NODE_EXTRA_CA_CERTS/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'ssl3_get_record:wrong version number', /plain HTTP/],
  ])('%s is a TLS failure: api_tls, never retried', (code, text, hint) => {
    const error = errorFromTransport(failure(code, text), at);
    expect(error.code).toBe('api_tls');
    expect(error.message).toMatch(/^TLS handshake with api\.example\.test failed during GET \/v4\/ip_rules: /);
    expect(error.message).toMatch(hint);
    expect(isRetryable(error, true)).toBe(false);
  });

  it('a reset or a timeout after sending may have been applied, and is not "unreachable"', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const error = errorFromTransport(failure(code), at);
      expect(error).toMatchObject({ mayHaveBeenApplied: true, unreachable: false });
      expect(error.message).toContain('api.example.test');
    }
    expect(errorFromTransport(failure('UND_ERR_HEADERS_TIMEOUT'), at).message)
      .toBe('api.example.test sent no answer within --request-timeout to GET /v4/ip_rules (UND_ERR_HEADERS_TIMEOUT)');
  });
});

describe('retrying an unreachable host', () => {
  const refused = () => errorFromTransport(failure('ECONNREFUSED'), at);
  const fast = { maxAttempts: 50, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 50 };

  it('a one-shot policy gives up once the give-up time has passed', async () => {
    let calls = 0;
    const started = Date.now();
    await expect(withRetry(async () => {
      calls++;
      throw refused();
    }, { idempotent: true, policy: { ...fast, unreachableGiveUpMs: 100 } })).rejects.toMatchObject({ code: 'api_network' });
    expect(Date.now() - started).toBeLessThan(400);
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(50);
  });

  it('without a give-up time (the daemon) it backs off to maxAttempts like any other failure', async () => {
    let calls = 0;
    await expect(withRetry(async () => {
      calls++;
      throw refused();
    }, { idempotent: true, policy: { ...fast, maxAttempts: 8 } })).rejects.toMatchObject({ code: 'api_network' });
    expect(calls).toBe(8);
    expect(DEFAULT_RETRY_POLICY.unreachableGiveUpMs).toBeUndefined();
    expect(ONE_SHOT_RETRY_POLICY.unreachableGiveUpMs).toBeLessThanOrEqual(5_000);
  });

  it('the give-up time concerns unreachable hosts only: a reset keeps its retries', async () => {
    let calls = 0;
    const flaky = errorFromTransport(failure('ECONNRESET'), at);
    await expect(withRetry(async () => {
      calls++;
      throw flaky;
    }, { idempotent: true, policy: { ...fast, maxAttempts: 6, unreachableGiveUpMs: 0 } })).rejects.toBe(flaky);
    expect(calls).toBe(6);
  });
});

describe('the client against a socket', () => {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** Accepts connections and never says a word: no TLS handshake, no HTTP answer. */
  async function silentHost(): Promise<string> {
    server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('a TLS handshake that never completes is a connect timeout naming the host', async () => {
    const host = await silentHost();
    const client = new ApiClient({ baseUrl: `https://${host}`, credentials: { token: 't' }, connectTimeoutMs: 150, retry: { ...ONE_SHOT_RETRY_POLICY, unreachableGiveUpMs: 0 } });
    const error = await client.call('GET', '/v4/ip_rules').catch((caught: unknown) => caught);
    await client.close();
    expect(error).toMatchObject({ code: 'api_timeout', unreachable: true, host });
    expect((error as Error).message).toMatch(new RegExp(`^cannot connect to ${host} \\(GET /v4/ip_rules\\): no connection within the connect timeout`));
  });

  it('a server that never answers is a request timeout naming the host', async () => {
    const host = await silentHost();
    const client = new ApiClient({ baseUrl: `http://${host}`, credentials: { token: 't' }, requestTimeoutMs: 150, retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 } });
    const error = await client.call('GET', '/v4/ip_rules').catch((caught: unknown) => caught);
    await client.close();
    expect(error).toMatchObject({ code: 'api_timeout', unreachable: false, host });
    expect((error as Error).message).toContain(`${host} sent no answer within --request-timeout to GET /v4/ip_rules`);
  });
});

describe('logging an error', () => {
  it('an expected error is its code and message, without a stack', () => {
    const error = errorFromTransport(failure('ECONNREFUSED'), at);
    expect(error).toBeInstanceOf(ApiError);
    const logged = serializeError(error) as Record<string, unknown>;
    expect(logged).toMatchObject({ code: 'api_network', host: 'api.example.test', route: 'GET /v4/ip_rules' });
    expect(logged.stack).toBeUndefined();
  });

  it('an unexpected error (a bug) keeps its stack', () => {
    const logged = serializeError(new TypeError('x is undefined')) as Record<string, unknown>;
    expect(logged.stack).toMatch(/TypeError: x is undefined/);
  });
});
