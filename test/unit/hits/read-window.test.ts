/**
 * A window read against listings that break what its slicing relies on,
 * scripted: ever-later times, records outside the window, the same page for
 * every offset, a page larger than asked, and a listing that never ends but
 * creeps back a second a slice. Each is stopped, saying how, after a bounded
 * number of calls and hits; through the impact's reader the client's evidence
 * is left out and the impact says it is incomplete, while another client's
 * evidence is kept.
 */
import { describe, expect, it } from 'vitest';
import { HIT_PAGE_LIMIT, type ServiceApi } from '../../../src/api/service.js';
import { HitListingStoppedError, readHitWindow } from '../../../src/hits/read-window.js';
import { HIT_OFFSET_CAP } from '../../../src/hits/read.js';
import { readImpactHits } from '../../../src/impact/read.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

const WINDOW = { from: 1_000_000, to: 1_600_000 };

const record = (n: number, time: number) => ({
  id: ['i', `h${n}`], attackid: ['i', `a${n}`], type: 'sqli', request_id: `r${n}`, point: ['get', 'q'], domain: 'shop.example.com', path: '/', time, poolid: 7,
});

/** A listing answering `page(filter window, offset, limit, call)`, counting its calls. */
function scripted(page: (window: [number, number], offset: number, limit: number, call: number) => unknown[]) {
  let calls = 0;
  const api = {
    listHits: (_client: number, filter: { time: [[number, number]] }, offset: number, limit: number) => Promise.resolve(page(filter.time[0], offset, limit, ++calls)),
  } as unknown as ServiceApi;
  return { api, calls: () => calls };
}

/** The read's outcome: the error it stopped with, and how many hits it had handed over. */
async function readAll(api: ServiceApi, maxHits?: number): Promise<{ error: unknown; handed: number }> {
  let handed = 0;
  try {
    await readHitWindow(api, 7, {}, { window: WINDOW, ...(maxHits !== undefined ? { maxHits } : {}) }, () => handed++);
    return { error: undefined, handed };
  } catch (error) {
    return { error, handed };
  }
}

describe('a window read against a listing that breaks its promises', () => {
  it('stops ever-later times at the first hit out of order', async () => {
    const { api, calls } = scripted((_w, offset, limit) => Array.from({ length: limit }, (_, i) => record(offset + i, WINDOW.from + offset + i)));
    const { error, handed } = await readAll(api);
    expect(error).toBeInstanceOf(HitListingStoppedError);
    expect((error as Error).message).toMatch(/of client 7 was stopped: hit i\/h1 of .* came after one of .*: the listing is not newest first/);
    expect(handed).toBe(1);
    expect(calls()).toBe(1);
  });

  it('stops at a hit outside the window asked for, later or earlier', async () => {
    for (const time of [WINDOW.to + 1, WINDOW.from - 1]) {
      const { api } = scripted(() => [record(1, WINDOW.to), record(2, time)]);
      const { error, handed } = await readAll(api);
      expect((error as Error).message).toMatch(/hit i\/h2 is of .*, outside the window asked for \(1970-01-12T13:46:40Z to 1970-01-19T12:26:40Z\)/);
      expect(handed).toBe(1);
    }
  });

  it('stops a listing that ignores the offset (the same page again) at the first repeat', async () => {
    const { api, calls } = scripted((_w, _offset, limit) => Array.from({ length: limit }, (_, i) => record(i, WINDOW.to)));
    const { error, handed } = await readAll(api);
    expect((error as Error).message).toMatch(/hit i\/h0 was listed twice in one time slice/);
    expect(handed).toBe(HIT_PAGE_LIMIT);
    expect(calls()).toBe(2);
  });

  it('stops a page larger than asked for before handing any of it over', async () => {
    const { api } = scripted((_w, _offset, limit) => Array.from({ length: limit * 50 }, (_, i) => record(i, WINDOW.to)));
    const { error, handed } = await readAll(api);
    expect((error as Error).message).toMatch(/a page held 50000 hits, more than the 1000 asked for/);
    expect(handed).toBe(0);
  });

  it('stops a listing that never ends, creeping back a second a slice, at the hits one read may keep', async () => {
    // Every slice is full at the cap and ends one second before the last: a week of seconds would be 6 billion hits.
    let serial = 0;
    const { api, calls } = scripted(([, to], offset, limit) => Array.from({ length: limit }, (_, i) => record(serial++, offset + i < HIT_OFFSET_CAP - 1 ? to : to - 1)));
    const { error, handed } = await readAll(api, 25_000);
    expect((error as Error).message).toMatch(/the window holds more than 25,000 hits, the most one read keeps: narrow --impact-window/);
    expect(handed).toBe(25_000);
    expect(calls()).toBeLessThanOrEqual(25_000 / HIT_PAGE_LIMIT + HIT_OFFSET_CAP / HIT_PAGE_LIMIT);
  });
});

describe('the impact\'s reader', () => {
  it('leaves a stopped client\'s evidence out and says why; another client\'s is kept', async () => {
    const files = [10042, 20042].map((client) => ({ file: `policies/${client}.yaml`, text: `version: 1\nclient: ${client}\napplication: 7\nmode: block\n` }));
    const loaded = loadPolicyTexts(files);
    if (!loaded.desired) throw new Error(JSON.stringify(loaded.diagnostics));
    const plan = buildPlan(loaded.desired, { clients: [10042, 20042], rules: [], ipEntries: [] });
    const api = {
      listHits: (client: number, _filter: unknown, offset: number, limit: number) => Promise.resolve(client === 10042
        // Ever-later times, never ending.
        ? Array.from({ length: limit }, (_, i) => record(offset + i, WINDOW.from + offset + i))
        : offset === 0 ? [record(1, WINDOW.to), record(2, WINDOW.to - 5)] : []),
    } as unknown as ServiceApi;
    const read = await readImpactHits(api, plan.changes, WINDOW);
    expect(read.incomplete).toMatch(/^the hits listing failed for client 10042: POST \/v1\/objects\/hit of client 10042 was stopped: hit i\/h1 .* not newest first/);
    expect(read.seen.client(10042).size).toBe(0);
    expect(read.seen.client(20042).allIds()).toEqual(['r1', 'r2']);
  });
});
