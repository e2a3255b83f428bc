import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const LIST = '/v4/ip_rules?filter[clientid]=1&filter[list]=black&limit=10';
let emu: TestEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

describe('injected latency', () => {
  it('is absent from the config and adds nothing by default', async () => {
    emu = await startTestEmulator();
    expect(emu.control.config()).not.toHaveProperty('latencyMs');
    const { result } = await timed(() => emu!.call('GET', LIST));
    expect(result.status).toBe(200);
  });

  it('delays every API call by latencyMs, answered and logged as usual', async () => {
    emu = await startTestEmulator({ latencyMs: 150 });
    expect(emu.control.config().latencyMs).toBe(150);
    const { ms, result } = await timed(() => emu!.call('GET', LIST));
    expect(result.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(145);
    const [record] = emu.control.calls();
    expect(record).toMatchObject({ route: 'GET /v4/ip_rules', status: 200, outcome: 'answered' });
    expect(record!.durationMs).toBeGreaterThanOrEqual(145);
  });

  it('delays calls concurrently, not one after another', async () => {
    emu = await startTestEmulator({ latencyMs: 200 });
    const { ms, result } = await timed(() => Promise.all(Array.from({ length: 8 }, () => emu!.call('GET', LIST))));
    expect(result.every((r) => r.status === 200)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(195);
    expect(ms).toBeLessThan(8 * 200);
  });

  it('changes at run time, over control and the admin API, and leaves admin calls alone', async () => {
    emu = await startTestEmulator();
    emu.control.setConfig({ latencyMs: 300 });
    const slow = await timed(() => emu!.call('GET', LIST));
    expect(slow.ms).toBeGreaterThanOrEqual(295);
    const admin = await timed(() => emu!.call('PUT', '/__admin/config', { latencyMs: 0 }));
    expect(admin.result.body.latencyMs).toBe(0);
    expect(admin.ms).toBeLessThan(295);
    expect((await emu.call('PUT', '/__admin/config', { latencyMs: -1 })).http).toBe(400);
    expect(() => emu!.control.setConfig({ latencyMs: Number.NaN })).toThrow(TypeError);
  });

  it('refuses a negative latency at start', async () => {
    await expect(startTestEmulator({ latencyMs: -5 })).rejects.toThrow(/latencyMs/);
  });
});
