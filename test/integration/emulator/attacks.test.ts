import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 10042;
let emu: TestEmulator;
beforeEach(async () => {
  emu = await startTestEmulator({ now: () => 1_800_000_000_000 });
});
afterEach(async () => {
  await emu.close();
});

type Row = { id: number; last_time: number; first_time: number; vulnid: number | null; state: string | null; type: string; hits: number };

async function v1(body: Record<string, unknown>): Promise<Row[]> {
  const r = await emu.call('POST', '/v1/objects/attack', { filter: { clientid: [C] }, offset: 0, limit: 1000, ...body });
  expect(r.status).toBe(200);
  return r.body;
}

/** Every page of the cursor listing; fails if a page is empty but announced. */
async function v2All(filter: Record<string, unknown> = { clientid: [C] }): Promise<{ pages: Row[][]; cursors: number }> {
  const pages: Row[][] = [];
  let cursor: string | undefined;
  let cursors = 0;
  for (;;) {
    const r = await emu.call('POST', '/v2/objects/attack', { paging: true, filter, ...(cursor ? { cursor } : {}) });
    expect(r.status).toBe(200);
    pages.push(r.body.objects);
    if (!('cursor' in r.body)) return { pages, cursors };
    cursors++;
    expect(r.body.objects.length).toBe(100);
    cursor = r.body.cursor;
  }
}

describe('demo data', () => {
  it('is deterministic per account and realistic', async () => {
    const first = await v1({});
    const again = await v1({});
    expect(again).toEqual(first);
    expect(first).toHaveLength(237);
    expect(first.some((a) => a.vulnid !== null)).toBe(true);
    expect(first.some((a) => a.state === 'falsepositive')).toBe(true);
    expect(new Set(first.map((a) => a.type)).size).toBeGreaterThan(5);
    expect(first.every((a) => a.hits >= 1 && a.first_time <= a.last_time)).toBe(true);
    const other = await emu.call('POST', '/v1/objects/attack', { filter: { clientid: [7] }, limit: 1000 });
    expect(other.body).not.toEqual(first);
  });
});

describe('POST /v1/objects/attack', () => {
  it('filters incidents, false positives and orders by last_time', async () => {
    const all = await v1({});
    const incidents = await v1({ filter: { clientid: [C], '!vulnid': null } });
    expect(incidents.length).toBe(all.filter((a) => a.vulnid !== null).length);
    expect(incidents.every((a) => a.vulnid !== null)).toBe(true);
    const plain = await v1({ filter: { clientid: [C], vulnid: null } });
    expect(plain.every((a) => a.vulnid === null)).toBe(true);
    const noFp = await v1({ filter: { clientid: [C], '!state': 'falsepositive' } });
    expect(noFp.length).toBe(all.filter((a) => a.state !== 'falsepositive').length);
    const onlyFp = await v1({ filter: { clientid: [C], state: 'falsepositive' } });
    expect(onlyFp.length + noFp.length).toBe(all.length);
    const desc = await v1({ order_by: 'last_time', order_desc: true });
    expect(desc.map((a) => a.last_time)).toEqual([...desc.map((a) => a.last_time)].sort((a, b) => b - a));
  });

  it('filters by time pairs with open ends', async () => {
    const all = await v1({});
    const times = all.map((a) => a.last_time).sort((a, b) => a - b);
    const mid = times[Math.floor(times.length / 2)] as number;
    const after = await v1({ filter: { clientid: [C], time: [[mid, null]] } });
    expect(after.length).toBe(all.filter((a) => a.last_time >= mid).length);
    const before = await v1({ filter: { clientid: [C], time: [[null, mid]] } });
    expect(before.every((a) => a.first_time <= mid)).toBe(true);
    expect((await v1({ filter: { clientid: [C], time: [[null, null]] } })).length).toBe(all.length);
    const bad = await emu.call('POST', '/v1/objects/attack', { filter: { clientid: [C], time: [[1, 2, 3]] } });
    expect(bad.http).toBe(400);
  });

  it('pages by offset', async () => {
    const all = await v1({ order_by: 'last_time', order_desc: true });
    const page = await v1({ order_by: 'last_time', order_desc: true, offset: 50, limit: 50 });
    expect(page).toEqual(all.slice(50, 100));
    expect(await v1({ offset: 237, limit: 50 })).toEqual([]);
  });
});

describe('POST /v2/objects/attack cursor paging', () => {
  it.each([
    [0, 1, 0],
    [1, 1, 0],
    [99, 1, 0],
    [100, 1, 0],
    [101, 2, 1],
    [200, 2, 1],
    [237, 3, 2],
  ])('%i records: %i pages, %i cursors, no cursor to an empty page', async (count, pages, cursors) => {
    emu.control.seedDemo(C, { attacks: count });
    const result = await v2All();
    expect(result.pages).toHaveLength(pages);
    expect(result.cursors).toBe(cursors);
    const rows = result.pages.flat();
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((a) => a.id)).size).toBe(count);
    for (let i = 1; i < rows.length; i++) expect((rows[i - 1] as Row).last_time).toBeGreaterThanOrEqual((rows[i] as Row).last_time);
  });

  it('applies filters across pages', async () => {
    emu.control.seedDemo(C, { attacks: 500 });
    const all = (await v2All()).pages.flat();
    const noFp = (await v2All({ clientid: [C], '!state': 'falsepositive' })).pages.flat();
    expect(noFp.length).toBe(all.filter((a) => a.state !== 'falsepositive').length);
  });

  it('refuses a bad cursor and a missing paging flag', async () => {
    const bad = await emu.call('POST', '/v2/objects/attack', { paging: true, cursor: 'not-a-cursor', filter: { clientid: [C] } });
    expect(bad.http).toBe(400);
    expect(bad.body.cursor.error).toBeDefined();
    expect((await emu.call('POST', '/v2/objects/attack', { filter: { clientid: [C] } })).body.paging.error).toBeDefined();
  });
});

describe('POST /v1/objects/vuln', () => {
  it('filters validated (active), test runs and time, pages by offset', async () => {
    const all = (await emu.call('POST', '/v1/objects/vuln', { filter: { clientid: [C] }, limit: 1000 })).body as { status: string; testrun_id: number | null; time: number }[];
    expect(all).toHaveLength(42);
    expect(new Set(all.map((v) => v.status))).toEqual(new Set(['active', 'closed']));
    const active = (await emu.call('POST', '/v1/objects/vuln', { filter: { clientid: [C], validated: true, testrun_id: null }, limit: 1000 })).body as typeof all;
    expect(active.length).toBe(all.filter((v) => v.status === 'active' && v.testrun_id === null).length);
    expect(active.every((v) => v.status === 'active' && v.testrun_id === null)).toBe(true);
    const t = all[10]?.time as number;
    const recent = (await emu.call('POST', '/v1/objects/vuln', { filter: { clientid: [C], time: [[t, null]] }, limit: 1000 })).body as typeof all;
    expect(recent.length).toBe(all.filter((v) => v.time >= t).length);
    const page = (await emu.call('POST', '/v1/objects/vuln', { filter: { clientid: [C] }, limit: 10, offset: 40 })).body;
    expect(page).toHaveLength(2);
  });
});
