import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 1;
let emu: TestEmulator;
beforeEach(async () => {
  emu = await startTestEmulator({ now: () => 1_800_000_000_000 });
});
afterEach(async () => {
  await emu.close();
});

describe('admin API', () => {
  it('requires the token', async () => {
    const r = await call(emu.url, 'GET', '/__admin/state');
    expect(r.http).toBe(401);
  });

  it('reads and changes the config', async () => {
    const switches = { undocumentedRewrites: false, dropScopeDuplicates: false, updateErrorsAsHttp200: false, extendedToken: true, elevatedToken: false, defaultControls: false, demoTraffic: true, sampleApplications: true };
    expect((await emu.call('GET', '/__admin/config')).body).toEqual({ listingLagMs: 0, ipGranularity: 'per-value', ...switches });
    const r = await emu.call('PUT', '/__admin/config', { listingLagMs: 3000, ipGranularity: 'per-request', dropScopeDuplicates: true });
    expect(r.body).toEqual({ listingLagMs: 3000, ipGranularity: 'per-request', ...switches, dropScopeDuplicates: true });
    expect(emu.control.config().listingLagMs).toBe(3000);
    expect((await emu.call('PUT', '/__admin/config', { ipGranularity: 'x' })).http).toBe(400);
    for (const name of Object.keys(switches)) expect((await emu.call('PUT', '/__admin/config', { [name]: 'yes' })).http).toBe(400);
  });

  it('scripts faults and reads the call log without logging itself', async () => {
    const added = await emu.call('POST', '/__admin/faults', { route: 'POST /v1/objects/hint/create', kind: 'status', status: 423, count: 2 });
    expect(added.body).toEqual([{ route: 'POST /v1/objects/hint/create', kind: 'status', status: 423, count: 2 }]);
    expect((await emu.call('POST', '/__admin/faults', [{ route: '*', kind: 'boom' }])).http).toBe(400);
    const create = await emu.call('POST', '/v1/objects/hint/create', { clientid: C, type: 'service_mode', mode: 'off', action: [] });
    expect(create.http).toBe(423);
    expect((await emu.call('GET', '/__admin/faults')).body[0].count).toBe(1);
    await emu.call('DELETE', '/__admin/faults');
    expect((await emu.call('GET', '/__admin/faults')).body).toEqual([]);
    const log = await emu.call('GET', '/__admin/calls');
    expect(log.body.counts).toEqual({ 'POST /v1/objects/hint/create': 1 });
    expect(log.body.calls[0]).toMatchObject({ status: 423, outcome: 'answered' });
    await emu.call('DELETE', '/__admin/calls');
    expect((await emu.call('GET', '/__admin/calls')).body).toEqual({ calls: [], counts: {} });
  });

  it('advances the clock, seeds objects and demo data, reads state, resets', async () => {
    const clock = await emu.call('POST', '/__admin/clock', { advanceSeconds: 3600 });
    expect(clock.body.nowMs).toBe(1_800_003_600_000);
    expect((await emu.call('POST', '/__admin/clock', { advanceSeconds: -1 })).http).toBe(400);
    const hints = await emu.call('POST', '/__admin/seed/hints', { hints: [{ clientid: C, type: 'disable_attack_type', attack_type: 'xss' }] });
    expect(hints.body[0]).toMatchObject({ id: 1, type: 'disable_attack_type' });
    const ips = await emu.call('POST', '/__admin/seed/ip-rules', [{ clientid: C, rule_type: 'proxy_type', values: ['TOR'], list: 'gray' }]);
    expect(ips.body[0]).toMatchObject({ id: 1, list: 'gray', proxy_type: 'TOR' });
    expect((await emu.call('POST', '/__admin/seed/ip-rules', [{ rule_type: 'country' }])).http).toBe(400);
    const demo = await emu.call('POST', '/__admin/seed/demo', { clientid: C, attacks: 100, vulns: 3 });
    expect(demo.body).toEqual({ clientid: C, attacks: 100, vulns: 3 });
    const state = await emu.call('GET', '/__admin/state');
    expect(state.body.hints).toHaveLength(1);
    expect(state.body.ipObjects).toHaveLength(1);
    expect(state.body.clockOffsetMs).toBe(3_600_000);
    await emu.call('POST', '/__admin/reset');
    const after = (await emu.call('GET', '/__admin/state')).body;
    expect([after.hints, after.ipObjects, after.clockOffsetMs]).toEqual([[], [], 0]);
    expect((await emu.call('POST', '/v1/objects/attack', { filter: { clientid: [C] }, limit: 1000 })).body).toHaveLength(237);
  });

  it('404 and 405 for unknown admin routes and methods', async () => {
    expect((await emu.call('GET', '/__admin/nothing')).http).toBe(404);
    expect((await emu.call('DELETE', '/__admin/state')).http).toBe(405);
  });
});
