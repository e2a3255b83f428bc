import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
let now = 1_800_000_000_000;
let emu: TestEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const start = async (options: Parameters<typeof startTestEmulator>[0] = {}) => {
  now = 1_800_000_000_000;
  emu = await startTestEmulator({ now: () => now, dropScopeDuplicates: true, ...options });
  return emu;
};
const scope = [{ point: ['instance'], type: 'equal', value: '7' }];
const mode = (value: string, action = scope) => ({ clientid: C, type: 'service_mode', mode: value, action });
const create = async (body: unknown) => (await emu!.call('POST', '/v1/objects/hint/create', body)).body;
const listed = async () => (await emu!.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } })).body as { id: number; mode: string }[];
const remove = (id: number) => emu!.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id } });

describe('the one-per-scope duplicate quirk', () => {
  it('is off by default: both rules stay', async () => {
    await start({ dropScopeDuplicates: false });
    await create(mode('block'));
    await create(mode('monitoring'));
    expect(await listed()).toHaveLength(2);
  });

  it('drops the newer rule on the same condition set, so create-then-delete leaves the scope empty', async () => {
    await start();
    const old = await create(mode('block'));
    const replacement = await create(mode('monitoring'));
    expect(replacement.id).toBe(old.id + 1); // the create itself succeeds
    expect((await remove(old.id)).body).toHaveLength(1);
    expect(await listed()).toEqual([]);
    expect((await remove(replacement.id)).body).toEqual([]); // already gone
  });

  it('drops it once the listing lag in force at the create has passed', async () => {
    await start({ listingLagMs: 3000 });
    const old = await create(mode('block'));
    now += 3000;
    const dup = await create(mode('monitoring'));
    now += 2999;
    expect((await listed()).map((h) => h.id)).toEqual([old.id]);
    expect(emu!.control.state().hints.map((s) => s.record.id)).toEqual([old.id, dup.id]);
    now += 1;
    await listed();
    expect(emu!.control.state().hints.map((s) => s.record.id)).toEqual([old.id]);
  });

  it('touches only one-per-scope types, the same type and the same condition set', async () => {
    await start();
    await create(mode('block'));
    await create(mode('block', [{ point: ['instance'], type: 'equal', value: '8' }]));
    await create({ clientid: C, type: 'api_abuse_mode', mode: 'enabled', action: scope });
    await create({ clientid: 5, type: 'service_mode', mode: 'block', action: scope });
    const vpatch = { clientid: C, type: 'vpatch', attack_type: 'any', point: [['uri']], action: scope };
    await create(vpatch);
    await create(vpatch);
    expect(await listed()).toHaveLength(5);
    await create({ clientid: C, type: 'overlimit_res_settings', overlimit_time: 0, mode: 'off', action: scope });
    await create({ clientid: C, type: 'overlimit_res_settings', overlimit_time: 1000, mode: 'off', action: [...scope].reverse() });
    expect((await listed()).filter((h) => h.mode === 'off')).toHaveLength(1);
  });

  it('updating in place is the way to change the scope\'s rule', async () => {
    await start();
    const old = await create(mode('block'));
    await emu!.call('PUT', `/v3/hint/${old.id}`, { mode: 'monitoring' });
    expect((await listed()).map((h) => h.mode)).toEqual(['monitoring']);
  });

  it('counts a system rule as the scope\'s rule', async () => {
    await start();
    emu!.control.seedHint({ clientid: C, type: 'service_mode', mode: 'monitoring', system: true });
    await create(mode('block', []));
    expect((await listed()).map((h) => h.mode)).toEqual(['monitoring']);
  });
});
