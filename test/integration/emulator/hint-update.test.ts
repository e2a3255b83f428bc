import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
let now = 1_800_000_000_000;
let emu: TestEmulator;
beforeEach(async () => {
  now = 1_800_000_000_000;
  emu = await startTestEmulator({ now: () => now });
});
afterEach(async () => {
  await emu.close();
});

const rateLimit = { clientid: C, type: 'rate_limit', rate: 50, rsp_status: 429, point: [['get', 'q']], action: [], validated: false, comment: 'x' };
const create = async (body: Record<string, unknown> = rateLimit) => (await emu.call('POST', '/v1/objects/hint/create', body)).body;
const put = (id: number | string, body: unknown) => emu.call('PUT', `/v3/hint/${id}`, body);
const listed = async () => (await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } })).body;

describe('PUT /v3/hint/{id}', () => {
  it('changes updatable fields in place and answers the updated record with updated_at bumped', async () => {
    const hint = await create();
    now += 5000;
    const whole = { rate: 0, rsp_status: 429, burst: 0, delay: 0, time_unit: 'rpm', comment: 'slower', title: '', set: '', active: true, variativity_disabled: false };
    const r = await put(hint.id, whole);
    expect([r.http, r.status]).toEqual([200, 200]);
    expect(r.body).toEqual({ ...hint, ...whole, updated_at: hint.updated_at + 5 });
    expect(await listed()).toEqual([r.body]);
    expect(emu.control.count('PUT /v3/hint/{id}')).toBe(1);
  });

  it('resets every mutable field a body leaves out, as the service\'s probe saw: a partial body loses data, the whole one does not', async () => {
    const hint = await create({ ...rateLimit, burst: 5, delay: 2, time_unit: 'rpm', title: 'checkout', set: 'edge', active: false, variativity_disabled: true });
    // The changed field alone, as Rampart sent it before: the rest of the surface is reset or dropped.
    const partial = (await put(hint.id, { rate: 60, comment: 'x' })).body;
    expect(partial).toMatchObject({ rate: 60, comment: 'x', rsp_status: null, burst: 0, delay: 0, time_unit: 'rps', title: null, set: null, active: true, variativity_disabled: false });
    // The whole surface, with one field changed: nothing else moves.
    const again = await create({ ...rateLimit, burst: 5, delay: 2, time_unit: 'rpm', title: 'checkout', set: 'edge', active: false, variativity_disabled: true });
    const whole = { rate: 60, rsp_status: 429, burst: 5, delay: 2, time_unit: 'rpm', comment: 'x', title: 'checkout', set: 'edge', active: false, variativity_disabled: true };
    expect((await put(again.id, whole)).body).toEqual({ ...again, ...whole, updated_at: again.updated_at });
  });

  it('refuses what cannot change and bad values with 400 naming the field, changing nothing', async () => {
    const hint = await create();
    for (const [body, field] of [
      [{ point: [['get', 'x']] }, 'point'],
      [{ type: 'vpatch' }, 'type'],
      [{ clientid: C }, 'clientid'],
      [{ action: [] }, 'action'],
      [{ rate: 2000 }, 'rate'],
      [{ mode: 'block' }, 'mode'],
      [{ comment: '' }, 'comment'],
      [{}, 'body'],
    ] as const) {
      const r = await put(hint.id, body);
      expect([r.http, r.status, Object.keys(r.body)]).toEqual([400, 400, [field]]);
    }
    const mode = await create({ clientid: C, type: 'service_mode', mode: 'block', action: [] });
    expect((await put(mode.id, { mode: 'monitoring' })).body.mode).toBe('monitoring');
    const regex = await create({ clientid: C, type: 'regex', regex: 'a', attack_type: 'scanner', point: [['uri']], action: [] });
    expect((await put(regex.id, { attack_type: 'xss' })).body.attack_type.error).toBe("can't be changed");
    expect((await put(regex.id, { regex: '(' })).http).toBe(400);
    expect((await put(regex.id, { regex: 'b+' })).body).toMatchObject({ regex: 'b+', regex_id: regex.regex_id });
    expect((await listed()).find((h: { id: number }) => h.id === hint.id)).toEqual(hint);
  });

  it('answers 404 for an unknown or deleted id', async () => {
    const hint = await create();
    await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: hint.id } });
    for (const id of [hint.id, 999, 'abc']) {
      const r = await put(id, { rate: 1 });
      expect([r.http, r.status, r.body]).toEqual([404, 404, { id: { error: 'not found' } }]);
    }
    expect((await emu.call('GET', `/v3/hint/${hint.id}`)).http).toBe(405);
  });

  it('refuses to change a system rule and another account\'s rule', async () => {
    const system = emu.control.seedHint({ clientid: C, type: 'service_mode', mode: 'monitoring', system: true });
    expect((await put(system.id, { mode: 'block' })).http).toBe(400);
    await emu.close();
    emu = await startTestEmulator({ now: () => now, clients: [C] });
    const foreign = emu.control.seedHint({ clientid: 5, type: 'service_mode', mode: 'block' });
    expect((await put(foreign.id, { mode: 'off' })).http).toBe(403);
  });

  it('disable_stamp updates need an extended admin token when the switch says so', async () => {
    const stamp = await create({ clientid: C, type: 'disable_stamp', stamp: 1, point: [['get', 'q']], action: [] });
    emu.control.setConfig({ extendedToken: false });
    expect((await put(stamp.id, { stamp: 2 })).http).toBe(403);
  });

  it('listings show the old version until the lag in force at the update has passed', async () => {
    const hint = await create();
    emu.control.setConfig({ listingLagMs: 3000 });
    const updated = (await put(hint.id, { rate: 7, rsp_status: 429, comment: 'x' })).body;
    expect(updated.rate).toBe(7);
    expect((await listed())[0].rate).toBe(50);
    now += 2999;
    expect((await listed())[0].rate).toBe(50);
    now += 1;
    expect((await listed())[0]).toEqual(updated);
    // A second update right away conflicts with nothing: it applies to the stored (new) version.
    expect((await put(hint.id, { rate: 7, rsp_status: 429, burst: 3, comment: 'x' })).body).toMatchObject({ rate: 7, burst: 3 });
  });

  it('with updateErrorsAsHttp200, errors come as HTTP 200 with the inner status', async () => {
    await emu.close();
    emu = await startTestEmulator({ now: () => now, updateErrorsAsHttp200: true });
    const hint = await create();
    const bad = await put(hint.id, { rate: -1 });
    expect([bad.http, bad.status]).toEqual([200, 400]);
    expect(bad.body.rate.error).toBeDefined();
    const missing = await put(999, { rate: 1 });
    expect([missing.http, missing.status]).toEqual([200, 404]);
    expect((await put(hint.id, { rate: 1 })).http).toBe(200);
    // Only this route: a create error keeps its HTTP status.
    expect((await emu.call('POST', '/v1/objects/hint/create', { ...rateLimit, rate: -1 })).http).toBe(400);
    const log = emu.control.calls().filter((c) => c.route === 'PUT /v3/hint/{id}');
    expect(log.map((c) => c.status)).toEqual([200, 200, 200]);
  });

  it('takes scripted faults by route pattern', async () => {
    const hint = await create();
    emu.control.addFault({ route: 'PUT /v3/hint/{id}', kind: 'status', status: 423 });
    expect((await put(hint.id, { rate: 1 })).http).toBe(423);
    expect((await put(hint.id, { rate: 1 })).http).toBe(200);
  });
});
