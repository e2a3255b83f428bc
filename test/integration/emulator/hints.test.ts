import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
let emu: TestEmulator;

beforeEach(async () => {
  emu = await startTestEmulator();
});
afterEach(async () => {
  await emu.close();
});

const vpatch = (extra: Record<string, unknown> = {}) => ({
  clientid: C,
  type: 'vpatch',
  attack_type: 'any',
  validated: false,
  point: [['header', 'HOST']],
  action: [
    { point: ['instance'], type: 'equal', value: '7' },
    { point: ['path', 0], type: 'equal', value: 'admin' },
  ],
  ...extra,
});

const create = (body: unknown) => emu.call('POST', '/v1/objects/hint/create', body);
const list = (body: Record<string, unknown> = {}) =>
  emu.call('POST', '/v1/objects/hint', { filter: { clientid: [C] }, limit: 1000, offset: 0, ...body });

describe('hint create', () => {
  it('returns the created hint with every documented field', async () => {
    const r = await create(vpatch({ comment: 'legacy admin [managed-by:rampart]' }));
    expect(r.http).toBe(200);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: 1, actionid: 1, clientid: C, type: 'vpatch', attack_type: 'any', regex: null, regex_id: null,
      mode: null, comment: 'legacy admin [managed-by:rampart]', validated: false, active: true, system: false,
    });
    expect(typeof r.body.create_time).toBe('number');
    expect(r.body.updated_at).toBe(r.body.create_time);
  });

  it('normalizes like the real service', async () => {
    const r = await create({
      clientid: C,
      type: 'vpatch',
      attack_type: 'any',
      point: [['header', 'HOST']],
      action: [
        { point: ['header', 'x-forwarded-host'], type: 'iequal', value: 'Shop.Example.COM' },
        { point: ['header', 'user-agent'], type: 'regex', value: 'Curl.*' },
        { point: ['instance'], type: 'equal', value: 7 },
        { point: ['path', '1'], type: 'equal', value: 'Admin' },
        { point: ['header', 'x-debug'], type: 'absent' },
        { point: ['get', 'Q'], type: 'equal', value: 'X' },
      ],
    });
    expect(r.status).toBe(200);
    const [hint] = (await list()).body;
    expect(hint.point).toEqual(['header', 'HOST']); // flat on read
    const byKey = Object.fromEntries(hint.action.map((c: { point: unknown[] }) => [JSON.stringify(c.point), c]));
    expect(byKey['["header","X-FORWARDED-HOST"]']).toEqual({ point: ['header', 'X-FORWARDED-HOST'], type: 'iequal', value: 'shop.example.com' });
    expect(byKey['["header","USER-AGENT"]']).toEqual({ point: ['header', 'USER-AGENT'], type: 'regex', value: 'Curl.*' });
    expect(byKey['["instance"]']).toEqual({ point: ['instance'], type: 'equal', value: '7' });
    expect(byKey['["path",1]']).toEqual({ point: ['path', 1], type: 'equal', value: 'Admin' });
    expect(byKey['["header","X-DEBUG"]']).toEqual({ point: ['header', 'X-DEBUG'], type: 'absent', value: null });
    expect(byKey['["get","Q"]']).toEqual({ point: ['get', 'Q'], type: 'equal', value: 'X' });
  });

  it('normalizes an instance condition sent as iequal to equal', async () => {
    const r = await create(vpatch({ action: [{ point: ['instance'], type: 'iequal', value: '12' }] }));
    expect(r.body.action).toEqual([{ point: ['instance'], type: 'equal', value: '12' }]);
  });

  it('keeps neither the sent order nor a plain sort of conditions', async () => {
    const action = ['a', 'b', 'c', 'd', 'e', 'f'].map((v, i) => ({ point: ['path', i], type: 'equal', value: v }));
    const r = await create(vpatch({ action }));
    const got = r.body.action.map((c: { value: string }) => c.value);
    expect([...got].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(got).not.toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    // Deterministic: the same set always comes back in the same order.
    const again = await create(vpatch({ action: [...action].reverse() }));
    expect(again.body.action).toEqual(r.body.action);
  });

  it('gives the same actionid to the same condition set, in any order', async () => {
    const a = await create(vpatch());
    const b = await create(vpatch({ action: [...vpatch().action].reverse(), type: 'regex', regex: 'x', attack_type: 'scanner' }));
    const c = await create(vpatch({ action: [{ point: ['instance'], type: 'equal', value: '8' }] }));
    expect(b.body.actionid).toBe(a.body.actionid);
    expect(c.body.actionid).not.toBe(a.body.actionid);
    const actions = await emu.call('POST', '/v1/objects/action', { filter: { clientid: [C] }, offset: 0, limit: 1000 });
    expect(actions.body.map((x: { id: number }) => x.id)).toEqual([a.body.actionid, c.body.actionid]);
    expect(actions.body[0].conditions).toHaveLength(2);
    const byAction = await list({ filter: { clientid: [C], actionid: a.body.actionid } });
    expect(byAction.body.map((h: { id: number }) => h.id)).toEqual([a.body.id, b.body.id]);
  });

  it('accepts duplicates: same content gets a second id', async () => {
    const a = await create(vpatch());
    const b = await create(vpatch());
    expect(b.body.id).toBe(a.body.id + 1);
    expect((await list()).body).toHaveLength(2);
  });

  it('creates regex and service_mode hints and foreign types', async () => {
    const regex = await create({ clientid: C, type: 'regex', regex: '.*curltool.*', attack_type: 'scanner', point: [['header', 'USER-AGENT']], action: [], comment: 'flags a scanner' });
    expect(regex.body).toMatchObject({ type: 'regex', regex: '.*curltool.*', attack_type: 'scanner' });
    expect(regex.body.regex_id).toBeGreaterThan(0);
    for (const mode of ['default', 'off', 'monitoring', 'block', 'safe_blocking']) {
      const r = await create({ clientid: C, type: 'service_mode', mode, action: [] });
      expect(r.body).toMatchObject({ type: 'service_mode', mode, point: [] });
    }
    const stamp = await create({ clientid: C, type: 'disable_stamp', stamp: 7730, point: [['get', 'q']], action: [] });
    expect(stamp.body).toMatchObject({ type: 'disable_stamp', stamp: 7730 });
    expect((await create({ clientid: C, type: 'disable_attack_type', attack_type: 'xss', point: [['get', 'q']], action: [] })).status).toBe(200);
    expect((await create({ clientid: C, type: 'set_response_header', mode: 'append', name: 'X-Frame-Options', values: ['DENY'], action: [] })).status).toBe(200);
    expect((await create({ clientid: C, type: 'attack_rechecker', state: 'off', action: [] })).body).toMatchObject({ type: 'attack_rechecker', state: 'off' });
    expect((await create({ clientid: C, type: 'experimental_regex', regex: 'a+', attack_type: 'sqli', point: [['post']], action: [] })).status).toBe(200);
  });

  it.each([
    ['clientid missing', { ...vpatch(), clientid: undefined }, 'clientid'],
    ['clientid not positive', vpatch({ clientid: 0 }), 'clientid'],
    ['clientid a string', vpatch({ clientid: '5' }), 'clientid'],
    ['type missing', vpatch({ type: undefined }), 'type'],
    ['type unknown', vpatch({ type: 'nonsense' }), 'type'],
    ['action not an array', vpatch({ action: 'x' }), 'action'],
    ['action missing', vpatch({ action: undefined }), 'action'],
    ['condition type unknown', vpatch({ action: [{ point: ['path', 0], type: 'contains', value: 'x' }] }), 'action'],
    ['condition point unknown', vpatch({ action: [{ point: ['body'], type: 'equal', value: 'x' }] }), 'action'],
    ['condition value missing', vpatch({ action: [{ point: ['path', 0], type: 'equal' }] }), 'action'],
    ['path index negative', vpatch({ action: [{ point: ['path', -1], type: 'equal', value: 'x' }] }), 'action'],
    ['instance not numeric', vpatch({ action: [{ point: ['instance'], type: 'equal', value: 'shop' }] }), 'action'],
    ['61 conditions', vpatch({ action: Array.from({ length: 61 }, (_, i) => ({ point: ['get', `k${i}`], type: 'equal', value: 'v' })) }), 'action'],
    ['vpatch without point', vpatch({ point: undefined }), 'point'],
    ['vpatch without attack_type', vpatch({ attack_type: undefined }), 'attack_type'],
    ['regex without regex', vpatch({ type: 'regex' }), 'regex'],
    ['regex that does not compile', vpatch({ type: 'regex', regex: '(' }), 'regex'],
    ['service_mode without mode', { clientid: C, type: 'service_mode', action: [] }, 'mode'],
    ['service_mode with unknown mode', { clientid: C, type: 'service_mode', mode: 'panic', action: [] }, 'mode'],
    ['empty comment', vpatch({ comment: '' }), 'comment'],
    ['comment not a string', vpatch({ comment: 5 }), 'comment'],
    ['validated not a boolean', vpatch({ validated: 'no' }), 'validated'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const r = await create(body);
    expect(r.http).toBe(400);
    expect(r.status).toBe(400);
    expect(r.body[field]).toHaveProperty('error');
    expect((await list()).body).toEqual([]);
  });

  it('accepts exactly 60 conditions', async () => {
    const action = Array.from({ length: 60 }, (_, i) => ({ point: ['get', `k${i}`], type: 'equal', value: 'v' }));
    expect((await create(vpatch({ action }))).status).toBe(200);
  });
});

describe('hint listing', () => {
  it('pages with limit and offset; a short page is the end', async () => {
    for (let i = 0; i < 5; i++) await create(vpatch({ comment: `n${i}` }));
    const p1 = await list({ limit: 2, offset: 0 });
    const p3 = await list({ limit: 2, offset: 4 });
    const p4 = await list({ limit: 2, offset: 6 });
    expect(p1.body.map((h: { id: number }) => h.id)).toEqual([1, 2]);
    expect(p3.body.map((h: { id: number }) => h.id)).toEqual([5]);
    expect(p4.body).toEqual([]);
  });

  it('exact multiple of the page size ends with an empty page', async () => {
    for (let i = 0; i < 4; i++) await create(vpatch());
    expect((await list({ limit: 2, offset: 2 })).body).toHaveLength(2);
    expect((await list({ limit: 2, offset: 4 })).body).toEqual([]);
  });

  it('orders by updated_at, descending when asked', async () => {
    let now = 1_800_000_000_000;
    await emu.close();
    emu = await startTestEmulator({ now: () => now });
    for (let i = 0; i < 3; i++) {
      await create(vpatch());
      now += 5000;
    }
    const desc = await list({ order_by: 'updated_at', order_desc: true });
    expect(desc.body.map((h: { id: number }) => h.id)).toEqual([3, 2, 1]);
    const asc = await list({ order_by: 'updated_at', order_desc: false });
    expect(asc.body.map((h: { id: number }) => h.id)).toEqual([1, 2, 3]);
  });

  it('takes clientid as a scalar or an array and keeps accounts apart', async () => {
    await create(vpatch());
    await create(vpatch({ clientid: 7 }));
    expect((await list({ filter: { clientid: C } })).body).toHaveLength(1);
    expect((await list({ filter: { clientid: [C, 7] } })).body).toHaveLength(2);
    expect((await list({ filter: { clientid: [99] } })).body).toEqual([]);
  });

  it('an unknown id gives an empty list, never 404', async () => {
    const r = await list({ filter: { clientid: [C], id: 12345 } });
    expect(r.http).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('refuses a limit over 1000 and a malformed filter', async () => {
    const over = await list({ limit: 1001 });
    expect(over.http).toBe(400);
    expect(over.body.limit.error).toMatch(/1000/);
    expect((await list({ limit: 1000 })).http).toBe(200);
    expect((await emu.call('POST', '/v1/objects/hint', { limit: 10 })).body.filter.error).toBeDefined();
    expect((await list({ filter: { clientid: ['x'] } })).http).toBe(400);
    expect((await list({ offset: -1 })).http).toBe(400);
    expect((await list({ order_by: 'colour' })).http).toBe(400);
  });
});

describe('hint delete', () => {
  it('deletes by id (scalar or array) and lists what it deleted', async () => {
    const a = await create(vpatch());
    const b = await create(vpatch());
    const c = await create(vpatch());
    const one = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: a.body.id } });
    expect(one.http).toBe(200);
    expect(one.body.map((h: { id: number }) => h.id)).toEqual([a.body.id]);
    const two = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: [b.body.id, c.body.id] } });
    expect(two.body).toHaveLength(2);
    expect((await list()).body).toEqual([]);
  });

  it('answers 200 with [] when the hint is unknown or already gone', async () => {
    const a = await create(vpatch());
    await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: a.body.id } });
    const again = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: a.body.id } });
    expect(again.http).toBe(200);
    expect(again.body).toEqual([]);
    const unknown = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: 999 } });
    expect(unknown.body).toEqual([]);
  });

  it('does not delete another account\'s hint', async () => {
    const other = await create(vpatch({ clientid: 7 }));
    const r = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: other.body.id } });
    expect(r.body).toEqual([]);
    expect((await list({ filter: { clientid: 7 } })).body).toHaveLength(1);
  });

  it('deletes up to 1000 ids in one call; more is 400', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create(vpatch())).body.id);
    const padded = [...ids, ...Array.from({ length: 997 }, (_, i) => 5000 + i)];
    const r = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: padded } });
    expect(r.body.map((h: { id: number }) => h.id)).toEqual(ids);
    const over = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: [...padded, 9999] } });
    expect([over.http, over.body.filter.id.error]).toEqual([400, 'must have at most 1000 ids']);
  });

  it('never deletes a system rule: it is answered as nothing deleted and stays listed', async () => {
    const system = emu.control.seedHint({ clientid: C, type: 'service_mode', mode: 'monitoring', system: true });
    const mine = await create(vpatch());
    const r = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C], id: [system.id, mine.body.id] } });
    expect(r.body.map((h: { id: number }) => h.id)).toEqual([mine.body.id]);
    expect((await list()).body).toEqual([system]);
  });

  it('refuses a delete without id', async () => {
    const r = await emu.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [C] } });
    expect(r.http).toBe(400);
    expect(r.body.filter.id.error).toBeDefined();
  });
});

describe('seeded foreign hints', () => {
  it('lists hints planted directly, as they are', async () => {
    const planted = emu.control.seedHint({ clientid: C, type: 'disable_stamp', stamp: 1, system: true, action: [{ point: ['path', 0], type: 'equal', value: 'x' }] });
    const mine = await create(vpatch());
    expect(mine.body.id).toBe(planted.id + 1);
    const all = (await list()).body;
    expect(all.map((h: { type: string }) => h.type)).toEqual(['disable_stamp', 'vpatch']);
    expect(all[0]).toMatchObject({ stamp: 1, system: true });
  });
});
