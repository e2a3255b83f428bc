/**
 * The hits reader: the filter the service's own client sends (one request per
 * listing, the standard exclusions, a time window) and a listing that never
 * ends stopped at the offset cap instead of read forever.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceApi } from '../../../src/api/service.js';
import { HIT_OFFSET_CAP, HitListingCapError, readHits, readRequestHits } from '../../../src/hits/read.js';
import { readHitWindow } from '../../../src/hits/read-window.js';

const hit = (n: number) => ({
  id: ['i', `h${n}`], attackid: ['i', `a${n}`], type: 'sqli', request_id: `r${n}`, point: ['get', 'q'], domain: 'shop.example.com', path: '/', time: 1, poolid: -1,
});

/** A scripted listing: records each filter it is asked for and answers `pages(offset, limit)`. */
function scripted(pages: (offset: number, limit: number) => unknown[]) {
  const filters: Record<string, unknown>[] = [];
  const api = {
    listHits: (_client: number, filter: Record<string, unknown>, offset: number, limit: number) => {
      filters.push(filter);
      return Promise.resolve(pages(offset, limit));
    },
  } as unknown as ServiceApi;
  return { api, filters };
}

describe('reading hits', () => {
  const window = { from: 100, to: 200 };

  it('asks one listing per request id, a string, with the client\'s standard filters', async () => {
    const { api, filters } = scripted(() => [hit(1)]);
    const hits = await readRequestHits(api, 7, ['r-1', 'r-2', 'r-1'], { window });
    expect(hits).toHaveLength(2);
    expect(filters).toEqual(['r-1', 'r-2'].map((request_id) => ({
      request_id, '!state': 'falsepositive', '!experimental': true, '!aasm_event': true, '!type': ['warn', 'infoleak'], time: [[100, 200]],
    })));
    expect(hits[0]).toMatchObject({ application: -1, requestId: 'r1' });
  });

  it('reads an experimental rule\'s dry run when asked to', async () => {
    const { api, filters } = scripted(() => []);
    await readHits(api, 7, { attackid: [['i', 'a1']] }, { window, experimental: true });
    expect(filters[0]).toMatchObject({ experimental: true, attackid: [['i', 'a1']] });
    expect(filters[0]).not.toHaveProperty('!experimental');
  });

  it('stops a listing that never ends at the offset cap, with an error that says why', async () => {
    const { api, filters } = scripted((_offset, limit) => Array.from({ length: limit }, (_, i) => hit(i)));
    const read = readHits(api, 7, {}, { window });
    await expect(read).rejects.toBeInstanceOf(HitListingCapError);
    await expect(read).rejects.toThrow(/still full after 10000 hits.*narrow the time window/);
    expect(filters.length).toBe(HIT_OFFSET_CAP / 1000);
  });
});

describe('reading a long window in time slices', () => {
  /** A listing of `count` hits, `perSecond` to a second from second 1000 on, that refuses to page past the cap as the service may. */
  function capped(count: number, perSecond: number) {
    const all = Array.from({ length: count }, (_, n) => ({ ...hit(n), time: 1000 + Math.floor(n / perSecond) }));
    const windows: [number, number][] = [];
    const api = {
      listHits: (_client: number, filter: { time: [[number, number]] }, offset: number, limit: number) => {
        if (offset + limit > HIT_OFFSET_CAP) return Promise.reject(new Error('paged past the cap'));
        const [[from, to]] = filter.time;
        if (offset === 0) windows.push([from, to]);
        // Newest first, as the service's client reads them.
        return Promise.resolve(all.filter((h) => h.time >= from && h.time <= to).reverse().slice(offset, offset + limit));
      },
    } as unknown as ServiceApi;
    return { api, windows };
  }

  it('hands over every hit exactly once, ending each slice at the second the last one ended on', async () => {
    const { api, windows } = capped(25_500, 7);
    const ids: string[] = [];
    const listings = await readHitWindow(api, 7, {}, { window: { from: 0, to: 10_000 } }, (h) => ids.push(String(h.id[1])));
    expect(new Set(ids).size).toBe(25_500);
    expect(ids).toHaveLength(25_500);
    // 10,000 a slice, newest first, then what is left: each slice ends at the (oldest) second its predecessor ended on,
    // whose hits already handed over (five of seven, then three) are read again and skipped.
    expect(windows.map(([, to]) => to)).toEqual([10_000, 1000 + Math.floor(15_500 / 7), 1000 + Math.floor(5_505 / 7)]);
    expect(windows.map(([from]) => from)).toEqual([0, 0, 0]);
    expect(listings).toBe(10 + 10 + 6);
  });

  it('refuses a single second holding more hits than one filter can page through', async () => {
    const { api } = capped(12_000, 12_000);
    await expect(readHitWindow(api, 7, {}, { window: { from: 0, to: 10_000 } }, () => undefined)).rejects.toBeInstanceOf(HitListingCapError);
  });
});
