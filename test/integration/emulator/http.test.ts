import { request } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../../src/emulator/index.js';
import { call, TEST_TOKEN, useTestEmulator } from '../../helpers/emulator.js';

const emulator = useTestEmulator();
const start = (options: Partial<EmulatorOptions> = {}) => emulator.start(options);

const AUTH_BODY = { permissions: { error: 'invalid', reason: 'check access failed' } };
const hintList = { filter: { clientid: [1] }, limit: 10 };

/** A raw request, to see headers and bytes fetch would hide. */
function raw(
  url: string,
  options: { method: string; path: string; headers?: Record<string, string>; chunks?: Buffer[] },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${options.path}`, { method: options.method, headers: options.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

describe('authentication', () => {
  it('401 without or with a wrong token, in the service shape', async () => {
    await start();
    const missing = await call(emulator.current().url, 'POST', '/v1/objects/hint', hintList);
    expect(missing.http).toBe(401);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(AUTH_BODY);
    const wrong = await call(emulator.current().url, 'POST', '/v1/objects/hint', hintList, { 'x-serviceapi-token': 'nope' });
    expect(wrong.http).toBe(401);
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList)).http).toBe(200);
  });

  it('403 for an account the token is not bound to', async () => {
    await start({ clients: [1, 2] });
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList)).http).toBe(200);
    const other = await emulator.current().call('POST', '/v1/objects/hint', { filter: { clientid: [1, 3] } });
    expect(other.http).toBe(403);
    expect(other.body).toEqual(AUTH_BODY);
    expect((await emulator.current().call('GET', '/v4/ip_rules?filter%5Bclientid%5D=3')).http).toBe(403);
    expect((await emulator.current().call('POST', '/v1/objects/hint/create', { clientid: 3, type: 'service_mode', mode: 'block', action: [] })).http).toBe(403);
    expect((await emulator.current().call('POST', '/v2/objects/attack', { paging: true, filter: { clientid: [3] } })).http).toBe(403);
    expect((await emulator.current().call('DELETE', '/v4/ip_rules', { filter: { clientid: 3, id: [1] } })).http).toBe(403);
  });

  it('accepts a secret header, and requires the right one when a secret is set', async () => {
    await start();
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList, { 'x-serviceapi-secret': 'anything' })).http).toBe(200);
    await emulator.current().close();
    await start({ secret: 's3cret' });
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList)).http).toBe(401);
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList, { 'x-serviceapi-secret': 'wrong' })).http).toBe(401);
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList, { 'x-serviceapi-secret': 's3cret' })).http).toBe(200);
  });
});

describe('bad requests', () => {
  it('404 for an unknown route, 405 for a wrong method, both in the envelope', async () => {
    await start();
    const unknown = await emulator.current().call('POST', '/v9/nothing', {});
    expect([unknown.http, unknown.status]).toEqual([404, 404]);
    const method = await emulator.current().call('GET', '/v1/objects/hint');
    expect([method.http, method.status]).toEqual([405, 405]);
    expect(method.headers.get('allow')).toBe('POST');
  });

  it('400 for malformed JSON, a non-object body and wrong types', async () => {
    await start();
    const malformed = await emulator.current().call('POST', '/v1/objects/hint', '{"filter": ');
    expect(malformed.http).toBe(400);
    expect(malformed.body.body.error).toMatch(/malformed JSON/);
    expect((await emulator.current().call('POST', '/v1/objects/hint', '[1,2]')).http).toBe(400);
    expect((await emulator.current().call('POST', '/v1/objects/hint', '"text"')).http).toBe(400);
    expect((await emulator.current().call('POST', '/v1/objects/hint')).http).toBe(400);
    expect((await emulator.current().call('POST', '/v1/objects/hint', { filter: { clientid: [1] }, limit: '10' })).http).toBe(400);
    expect((await emulator.current().call('POST', '/v1/objects/hint', { filter: 'x' })).http).toBe(400);
  });

  it('413 for a body over the limit, by Content-Length or by streaming', async () => {
    await start({ maxBodyBytes: 1000 });
    const declared = await emulator.current().call('POST', '/v1/objects/hint', JSON.stringify({ pad: 'x'.repeat(2000) }));
    expect([declared.http, declared.status]).toEqual([413, 413]);
    const chunked = await raw(emulator.current().url, {
      method: 'POST',
      path: '/v1/objects/hint',
      headers: { 'x-serviceapi-token': TEST_TOKEN, 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 5 }, () => Buffer.alloc(400, 0x20)),
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body.toString()).status).toBe(413);
    // Still serving.
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList)).http).toBe(200);
  });

  it('answers garbage on the socket with 400 and keeps serving', async () => {
    await start();
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(emulator.current().port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await emulator.current().call('POST', '/v1/objects/hint', hintList)).http).toBe(200);
  });
});

describe('compression', () => {
  it('gzips large bodies when asked, and not otherwise', async () => {
    await start();
    const path = '/v1/objects/attack';
    const body = Buffer.from(JSON.stringify({ filter: { clientid: [1] }, limit: 200 }));
    const headers = { 'x-serviceapi-token': TEST_TOKEN, 'content-type': 'application/json' };
    const zipped = await raw(emulator.current().url, { method: 'POST', path, headers: { ...headers, 'accept-encoding': 'gzip' }, chunks: [body] });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const envelope = JSON.parse(gunzipSync(zipped.body).toString());
    expect(envelope.status).toBe(200);
    expect(envelope.body).toHaveLength(200);
    const plain = await raw(emulator.current().url, { method: 'POST', path, headers, chunks: [body] });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(envelope);
    const small = await raw(emulator.current().url, { method: 'POST', path: '/v1/objects/hint', headers: { ...headers, 'accept-encoding': 'gzip' }, chunks: [Buffer.from(JSON.stringify(hintList))] });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('options', () => {
  it('refuses to start without a token', async () => {
    await start();
    const { startEmulator } = await import('../../../src/emulator/index.js');
    await expect(startEmulator({ token: '' })).rejects.toThrow(/token is required/);
    await expect(startEmulator({ token: 't', listingLagMs: -1 })).rejects.toThrow(/listingLagMs/);
  });

  it('seeds demo data for the configured clients at start', async () => {
    await start({ clients: [5] });
    expect(emulator.current().control.calls()).toEqual([]);
    const r = await emulator.current().call('POST', '/v1/objects/vuln', { filter: { clientid: [5] }, limit: 5 });
    expect(r.body).toHaveLength(5);
  });
});
