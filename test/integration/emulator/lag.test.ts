import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NEVER_EXPIRES } from '../../../src/model/ip.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 1;
let now = 1_800_000_000_000;
let emu: TestEmulator;
beforeEach(async () => {
  now = 1_800_000_000_000;
  emu = await startTestEmulator({ now: () => now, listingLagMs: 3000 });
});
afterEach(async () => {
  await emu.close();
});

const mode = { clientid: C, type: 'service_mode', mode: 'block', action: [] };
const hintIds = async () =>
  ((await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] }, limit: 100 })).body as { id: number }[]).map((h) => h.id);
const ipIds = async () =>
  ((await emu.call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&limit=100`)).body.objects as { id: number }[]).map((o) => o.id);
const ip = (force = false) => ({
  clientid: C, ip_rule: { list: 'black', rule_type: 'ip_range', subnet: '1.2.3.4', pools: [0], expired_at: NEVER_EXPIRES }, force,
});

describe('listing lag', () => {
  it('a created hint shows only after the lag; a deleted one stays listed for the lag', async () => {
    const created = await emu.call('POST', '/v1/objects/hint/create', mode);
    expect(created.body.id).toBe(1);
    expect(await hintIds()).toEqual([]);
    now += 2999;
    expect(await hintIds()).toEqual([]);
    now += 1;
    expect(await hintIds()).toEqual([1]);
    const deleted = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: 1 } });
    expect(deleted.body).toHaveLength(1);
    expect(await hintIds()).toEqual([1]);
    // The delete took effect at once: a second delete finds nothing.
    expect((await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: 1 } })).body).toEqual([]);
    now += 3000;
    expect(await hintIds()).toEqual([]);
  });

  it('IP objects lag too, but conflicts see writes at once', async () => {
    await emu.call('POST', '/v4/ip_rules', ip());
    expect(await ipIds()).toEqual([]);
    expect((await emu.call('POST', '/v4/ip_rules', ip())).http).toBe(409);
    now += 3000;
    expect(await ipIds()).toEqual([1]);
    await emu.call('DELETE', '/v4/ip_rules', { filter: { clientid: C, id: [1] } });
    expect(await ipIds()).toEqual([1]);
    expect((await emu.call('POST', '/v4/ip_rules', ip())).status).toBe(200);
    now += 3000;
    expect(await ipIds()).toEqual([2]);
  });

  it('force replaces atomically after the lag', async () => {
    await emu.call('POST', '/v4/ip_rules', ip());
    now += 3000;
    await emu.call('POST', '/v4/ip_rules', ip(true));
    expect(await ipIds()).toEqual([1]);
    now += 3000;
    expect(await ipIds()).toEqual([2]);
  });

  it('is switchable at run time, and advanceClock moves past it', async () => {
    emu.control.setConfig({ listingLagMs: 0 });
    await emu.call('POST', '/v1/objects/hint/create', mode);
    expect(await hintIds()).toEqual([1]);
    emu.control.setConfig({ listingLagMs: 60_000 });
    await emu.call('POST', '/v1/objects/hint/create', mode);
    expect(await hintIds()).toEqual([1]);
    emu.control.advanceClock(60);
    expect(await hintIds()).toEqual([1, 2]);
    expect(() => emu.control.setConfig({ listingLagMs: -5 })).toThrow();
    expect(() => emu.control.setConfig({ ipGranularity: 'sometimes' as never })).toThrow();
  });
});
