/**
 * The hits reader: the filter the service's own client sends (one request per
 * listing, the standard exclusions, a time window) and a listing that never
 * ends stopped at the offset cap instead of read forever.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceApi } from '../../../src/api/service.js';
import { HIT_OFFSET_CAP, HitListingCapError, readHits, readRequestHits } from '../../../src/hits/read.js';

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
