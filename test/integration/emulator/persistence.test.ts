import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/emulator/index.js';
import { NEVER_EXPIRES } from '../../../src/model/ip.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';

const C = 1;
let dir: string;
let file: string;
let emu: TestEmulator | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-emu-'));
  file = join(dir, 'nested', 'state.json');
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  await rm(dir, { recursive: true, force: true });
});

const mode = { clientid: C, type: 'service_mode', mode: 'block', action: [] };
const ip = { clientid: C, ip_rule: { list: 'black', rule_type: 'ip_range', subnet: '1.2.3.4', pools: [0], expired_at: NEVER_EXPIRES } };

describe('persistence', () => {
  it('keeps catalogue fields, pending update versions and scheduled drops across a restart', async () => {
    let now = 1_800_000_000_000;
    const options = { dataFile: file, now: () => now, listingLagMs: 3000, dropScopeDuplicates: true };
    emu = await startTestEmulator(options);
    const rate = { clientid: C, type: 'rate_limit', rate: 0, rsp_status: 503, point: [['get', 'q']], action: [] };
    const id = (await emu.call('POST', '/v1/objects/hint/create', rate)).body.id;
    now += 3000;
    await emu.call('POST', '/v1/objects/hint/create', mode);
    now += 3000;
    await emu.call('POST', '/v1/objects/hint/create', mode); // a duplicate of its scope: dropped at +3000
    await emu.call('PUT', `/v3/hint/${id}`, { rate: 9 }); // listed from +3000
    await emu.close();

    emu = await startTestEmulator(options);
    const list = async () => (await emu!.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } })).body;
    expect((await list()).map((h: { type: string; rate?: number }) => [h.type, h.rate])).toEqual([['rate_limit', 0], ['service_mode', undefined]]);
    expect((await list())[0]).toMatchObject({ burst: 0, delay: 0, time_unit: 'rps', point: ['get', 'q'] });
    now += 3000;
    expect((await list()).map((h: { type: string; rate?: number }) => [h.type, h.rate])).toEqual([['rate_limit', 9], ['service_mode', undefined]]);
    expect(emu.control.state().hints).toHaveLength(2);
  });

  it('keeps hints, IP objects, id counters and the clock across a restart', async () => {
    emu = await startTestEmulator({ dataFile: file });
    await emu.call('POST', '/v1/objects/hint/create', mode);
    await emu.call('POST', '/v1/objects/hint/create', mode);
    await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: 2 } });
    await emu.call('POST', '/v4/ip_rules', ip);
    emu.control.seedIpObject({ clientid: C, values: ['10.0.0.0/16'], author: 'bob' });
    emu.control.advanceClock(120);
    const clockBefore = emu.control.nowMs();
    await emu.close();

    emu = await startTestEmulator({ dataFile: file });
    const hints = await emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] } });
    expect(hints.body.map((h: { id: number }) => h.id)).toEqual([1]);
    const objects = await emu.call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}`);
    expect(objects.body.objects.map((o: { subnet: string }) => o.subnet)).toEqual(['1.2.3.4/32', '10.0.0.0/16']);
    expect(emu.control.nowMs()).toBeGreaterThanOrEqual(clockBefore);
    // Counters continue: no id is reused.
    expect((await emu.call('POST', '/v1/objects/hint/create', mode)).body.id).toBe(3);
    expect((await emu.call('POST', '/v4/ip_rules', ip)).http).toBe(409);
  });

  it('has the write on disk before the response is sent', async () => {
    emu = await startTestEmulator({ dataFile: file });
    await emu.call('POST', '/v1/objects/hint/create', mode);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.hints).toHaveLength(1);
  });

  it('coalesces concurrent writes and leaves no temp files', async () => {
    emu = await startTestEmulator({ dataFile: file });
    await Promise.all(Array.from({ length: 50 }, () => emu!.call('POST', '/v1/objects/hint/create', mode)));
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.hints).toHaveLength(50);
    expect(await readdir(join(dir, 'nested'))).toEqual(['state.json']);
  });

  it('refuses to start on a corrupt or foreign file, with a clear error', async () => {
    await writeFile(join(dir, 'bad.json'), '{"format": "rampart-emulator-state", "version": 1, "hin');
    await expect(startEmulator({ token: TEST_TOKEN, dataFile: join(dir, 'bad.json') })).rejects.toThrow(/not valid JSON/);
    await writeFile(join(dir, 'other.json'), '{"hello": "world"}');
    await expect(startEmulator({ token: TEST_TOKEN, dataFile: join(dir, 'other.json') })).rejects.toThrow(/not a rampart-emulator-state/);
  });

  it.skipIf(process.getuid?.() === 0)('refuses to start on an unreadable file', async () => {
    const locked = join(dir, 'locked.json');
    await writeFile(locked, '{}');
    await chmod(locked, 0o000);
    await expect(startEmulator({ token: TEST_TOKEN, dataFile: locked })).rejects.toThrow(/cannot read emulator data file/);
  });

  it('refuses to start when the data file is a directory', async () => {
    await expect(startEmulator({ token: TEST_TOKEN, dataFile: dir })).rejects.toThrow(/cannot read emulator data file/);
  });

  it('refuses to start when the data file cannot be written', async () => {
    await writeFile(join(dir, 'plain-file'), 'x');
    const impossible = join(dir, 'plain-file', 'state.json');
    await expect(startEmulator({ token: TEST_TOKEN, dataFile: impossible })).rejects.toThrow(/emulator data file/);
  });
});
