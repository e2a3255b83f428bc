import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';

const C = 1;
const CREATE = 'POST /v1/objects/hint/create';
const mode = { clientid: C, type: 'service_mode', mode: 'block', action: [] };
let emu: TestEmulator;
beforeEach(async () => {
  emu = await startTestEmulator();
});
afterEach(async () => {
  await emu.close();
});

const listHints = async () => (await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] }, limit: 100 })).body as { id: number }[];

describe('status faults', () => {
  it('423 for the next N matching calls, then normal service', async () => {
    emu.control.addFault({ route: CREATE, kind: 'status', status: 423, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await emu.call('POST', '/v1/objects/hint/create', mode);
      expect([r.http, r.status]).toEqual([423, 423]);
      expect(r.body).toBe('Rules updates have been locked due to backup/restoring rules snapshot');
    }
    expect((await emu.call('POST', '/v1/objects/hint/create', mode)).http).toBe(200);
    expect(await listHints()).toHaveLength(1); // the refused calls wrote nothing
  });

  it('429 with Retry-After', async () => {
    emu.control.addFault({ route: CREATE, kind: 'status', status: 429, retryAfterSeconds: 3 });
    const r = await emu.call('POST', '/v1/objects/hint/create', mode);
    expect(r.http).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
  });

  it('500 and 503, on any route with "*", only matching routes otherwise', async () => {
    emu.control.addFault({ route: 'GET /v4/ip_rules', kind: 'status', status: 503 });
    expect((await emu.call('POST', '/v1/objects/hint/create', mode)).http).toBe(200);
    expect((await emu.call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}`)).http).toBe(503);
    emu.control.addFault({ route: '*', kind: 'status', status: 500 });
    const r = await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } });
    expect([r.http, r.status]).toEqual([500, 500]);
    expect(emu.control.faults()).toEqual([]);
  });

  it('a status fault answers before auth, like a gateway would', async () => {
    emu.control.addFault({ route: CREATE, kind: 'status', status: 503 });
    expect((await call(emu.url, 'POST', '/v1/objects/hint/create', mode)).http).toBe(503);
  });
});

describe('connection faults', () => {
  it('reset: the socket closes without a response and nothing is written', async () => {
    emu.control.addFault({ route: CREATE, kind: 'reset' });
    await expect(emu.call('POST', '/v1/objects/hint/create', mode)).rejects.toThrow();
    expect(await listHints()).toEqual([]);
    expect(emu.control.calls()[0]).toMatchObject({ route: CREATE, status: null, outcome: 'reset' });
  });

  it('reset-after-write: the write goes through but the client never learns it', async () => {
    emu.control.addFault({ route: CREATE, kind: 'reset-after-write' });
    await expect(emu.call('POST', '/v1/objects/hint/create', mode)).rejects.toThrow();
    expect(await listHints()).toHaveLength(1);
    expect(emu.control.calls()[0]).toMatchObject({ outcome: 'reset-after-write', status: null });
  });

  it('hang: never answers until the client gives up; the emulator keeps serving', async () => {
    emu.control.addFault({ route: CREATE, kind: 'hang' });
    const started = Date.now();
    await expect(
      fetch(`${emu.url}/v1/objects/hint/create`, {
        method: 'POST',
        headers: { 'x-serviceapi-token': TEST_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(mode),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await listHints()).toEqual([]);
    expect((await emu.call('POST', '/v1/objects/hint/create', mode)).http).toBe(200);
  });

  it('close() does not wait for a hung call', async () => {
    emu.control.addFault({ route: '*', kind: 'hang' });
    const pending = emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } });
    await new Promise((r) => setTimeout(r, 50));
    await emu.close();
    await expect(pending).rejects.toThrow();
  });
});

describe('call log', () => {
  it('records every call with route, status and time; counts per route; resets', async () => {
    await emu.call('POST', '/v1/objects/hint/create', mode);
    await emu.call('POST', '/v1/objects/hint/create', { clientid: 0 });
    await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } });
    await call(emu.url, 'POST', '/v1/objects/hint', {});
    const calls = emu.control.calls();
    expect(calls.map((c) => [c.route, c.status])).toEqual([
      [CREATE, 200], [CREATE, 400], ['POST /v1/objects/hint', 200], ['POST /v1/objects/hint', 401],
    ]);
    expect(calls.every((c) => typeof c.time === 'number' && c.method === 'POST')).toBe(true);
    expect(emu.control.counts()).toEqual({ 'POST /v1/objects/hint': 2, [CREATE]: 2 });
    expect(emu.control.count(CREATE)).toBe(2);
    emu.control.resetCalls();
    expect(emu.control.calls()).toEqual([]);
    expect(emu.control.count(CREATE)).toBe(0);
  });

  it('refuses a malformed fault', () => {
    expect(() => emu.control.addFault({ route: CREATE, kind: 'status' })).toThrow(/status/);
    expect(() => emu.control.addFault({ route: CREATE, kind: 'boom' as never })).toThrow(/kind/);
    expect(() => emu.control.addFault({ route: CREATE, kind: 'reset', count: 0 })).toThrow(/count/);
  });
});

describe('listing faults', () => {
  it('delete-after-list: answers the page, then deletes its first object, so the next page shifts back by one', async () => {
    const seeded = Array.from({ length: 5 }, (_, i) => emu.control.seedIpObject({ clientid: C, values: [`192.0.2.${i + 1}/32`] }).id);
    emu.control.addFault({ route: 'GET /v4/ip_rules', kind: 'delete-after-list' });
    const page = async (offset: number) =>
      ((await emu.call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&offset=${offset}&limit=2`)).body as { objects: { id: number }[] }).objects.map((o) => o.id);
    expect(await page(0)).toEqual(seeded.slice(0, 2));
    // The third object now sits at offset 1: plain offsets (2) would never see it.
    expect(await page(2)).toEqual(seeded.slice(3, 5));
    expect(await page(0)).toEqual(seeded.slice(1, 3));
    expect(emu.control.faults()).toEqual([]);
    expect(emu.control.calls()[0]).toMatchObject({ route: 'GET /v4/ip_rules', status: 200, outcome: 'answered' });
  });

  it('delete-after-list on the rule listing; an empty page deletes nothing', async () => {
    emu.control.addFault({ route: 'POST /v1/objects/hint', kind: 'delete-after-list', count: 2 });
    expect(await listHints()).toEqual([]);
    const ids = [mode, { ...mode, mode: 'monitoring' }].map((m) => emu.control.seedHint(m).id);
    expect((await listHints()).map((h) => h.id)).toEqual(ids);
    expect((await listHints()).map((h) => h.id)).toEqual(ids.slice(1));
  });
});
