/** The emulator's hits over HTTP: the filters the service's notes name, offset paging, demo hits, and `action/by_hit`. */
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
const emulators = useTestEmulator();
let emu: TestEmulator;
beforeEach(async () => {
  emu = await emulators.start();
});

const list = async (filter: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  (await emu.call('POST', '/v1/objects/hit', { filter: { clientid: C, ...filter }, ...more })).body as { id: [string, string]; request_id: string; type: string }[];

describe('hits', () => {
  it('are filtered by request, type, time and attack, and paged by offset', async () => {
    const now = Math.floor(emu.control.nowMs() / 1000);
    const seeded = emu.control.seedHits(Array.from({ length: 5 }, (_, i) => ({
      clientid: C, request_id: i < 3 ? 'r1' : 'r2', type: i % 2 ? 'xss' : 'sqli', point: ['get', 'q'], time: now - i * 100, attackid: ['a', i < 4 ? 'x' : 'y'],
    })));
    expect((await list({ request_id: 'r1' })).map((h) => h.request_id)).toEqual(['r1', 'r1', 'r1']);
    // One request per listing, as the service's client asks: a list is refused.
    expect((await emu.call('POST', '/v1/objects/hit', { filter: { clientid: C, request_id: ['r1', 'r2'] } })).http).toBe(400);
    expect((await list({ request_id: 'r1', type: ['xss'] })).map((h) => h.type)).toEqual(['xss']);
    expect(await list({ request_id: 'r2', '!type': ['xss', 'sqli'] })).toEqual([]);
    expect((await list({ request_id: 'r1', time: [[now - 150, null]] })).length).toBe(2);
    expect((await list({ attackid: [['a', 'y']] })).map((h) => h.id)).toEqual([seeded[4]?.id]);
    const page = await list({ request_id: 'r1' }, { limit: 2, offset: 1, order_by: 'time', order_desc: true });
    expect(page.map((h) => h.id)).toEqual([seeded[1]?.id, seeded[2]?.id]);
    expect((await emu.call('POST', '/v1/objects/hit', { filter: { clientid: C }, limit: 1001 })).http).toBe(400);
  });

  it('every account has the demo false positives', async () => {
    expect((await list({ request_id: 'e3b0c44298fc1c14' })).map((h) => h.type)).toEqual(['sqli', 'sqli']);
  });

  it('action/by_hit answers the service\'s scope of a hit, with the application it was seen on', async () => {
    const [hit] = emu.control.seedHits([{ clientid: C, request_id: 'r', type: 'xss', point: ['get', 'q'], domain: 'Shop.Example.com', path: '/a/b.tar.gz', poolid: 7 }]);
    const answer = await emu.call('POST', '/v1/objects/action/by_hit', { id: hit?.id });
    expect(answer.body).toEqual({
      clientid: C,
      conditions: [
        { point: ['instance'], type: 'equal', value: '7' },
        { point: ['header', 'HOST'], type: 'iequal', value: 'shop.example.com' },
        { point: ['path', 0], type: 'equal', value: 'a' },
        { point: ['action_name'], type: 'equal', value: 'b' },
        { point: ['action_ext'], type: 'equal', value: 'tar.gz' },
        { point: ['path', 1], type: 'absent', value: null },
      ],
    });
    expect((await emu.call('POST', '/v1/objects/action/by_hit', { id: ['x', 'nope'] })).http).toBe(404);
  });
});
