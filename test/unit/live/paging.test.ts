import { describe, expect, it } from 'vitest';
import { fetchAllPages, minimumListingCalls } from '../../../src/live/paging.js';

interface Item { readonly id: number; readonly v?: number }

/** A listing ordered by id; `between` runs after each page call, like a console write. */
function listing(total: number, between: (items: Item[], call: number) => void = () => {}) {
  const items: Item[] = Array.from({ length: total }, (_, i) => ({ id: i + 1 }));
  const calls: number[] = [];
  const fetchPage = async (offset: number, limit: number): Promise<Item[]> => {
    calls.push(offset);
    const page = items.slice(offset, offset + limit).map((item) => ({ ...item }));
    between(items, calls.length);
    return page;
  };
  return { items, calls, fetchPage };
}

const ids = (items: readonly Item[]) => items.map((item) => item.id);

describe('fetchAllPages', () => {
  it('stops at the first short page, so a read costs the minimum calls', async () => {
    for (const total of [0, 1, 2, 999, 1000, 1001, 1998, 1999, 2000, 3000, 3001]) {
      const { items, calls, fetchPage } = listing(total);
      const read = await fetchAllPages(fetchPage, 1000);
      expect(ids(read)).toEqual(ids(items));
      expect(calls).toHaveLength(minimumListingCalls(total, 1000));
    }
  });

  it('starts each page on the last object of the page before', async () => {
    const { calls, fetchPage } = listing(2500);
    await fetchAllPages(fetchPage, 1000);
    expect(calls).toEqual([0, 999, 1998]);
  });

  it('reads again from the top when a delete on an earlier page shifts the listing, so no object is skipped', async () => {
    // After the first page call, the console deletes the listing's first object.
    const { items, calls, fetchPage } = listing(1500, (all, call) => {
      if (call === 1) all.splice(0, 1);
    });
    const read = await fetchAllPages(fetchPage, 1000);
    expect(ids(read)).toEqual(ids(items));
    expect(read.some((item) => item.id === 1001)).toBe(true);
    expect(calls).toEqual([0, 999, 0, 999]);
  });

  it('reads again when an insert shifts the listing forward', async () => {
    const { items, calls, fetchPage } = listing(1500, (all, call) => {
      if (call === 1) all.unshift({ id: 0 });
    });
    expect(ids(await fetchAllPages(fetchPage, 1000))).toEqual(ids(items));
    expect(calls).toEqual([0, 999, 0, 999]);
  });

  it('reads again when the last object of a page is gone before the next page (an empty overlap)', async () => {
    const { items, fetchPage } = listing(1000, (all, call) => {
      if (call === 1) all.splice(999, 1);
    });
    expect(ids(await fetchAllPages(fetchPage, 1000))).toEqual(ids(items));
  });

  it('keeps the later copy of the object both pages show', async () => {
    const { fetchPage } = listing(1500, (all, call) => {
      if (call === 1) all[999] = { id: 1000, v: 2 };
    });
    const read = await fetchAllPages(fetchPage, 1000);
    expect(read.filter((item) => item.id === 1000)).toEqual([{ id: 1000, v: 2 }]);
    expect(read).toHaveLength(1500);
  });

  it('fails with listing_unstable, naming the listing, when every read shifts', async () => {
    const { calls, fetchPage } = listing(1500, (all) => all.splice(0, 1));
    await expect(fetchAllPages(fetchPage, 1000, { what: 'rule listing of client 7', attempts: 3 })).rejects.toMatchObject({
      code: 'listing_unstable',
      retryable: true,
      message: expect.stringContaining('rule listing of client 7 changed between page calls on each of 3 reads'),
    });
    expect(calls).toEqual([0, 999, 0, 999, 0, 999]);
  });

  it('stops when aborted', async () => {
    const stop = new AbortController();
    const { fetchPage } = listing(1500, () => stop.abort(new Error('stopped')));
    await expect(fetchAllPages(fetchPage, 1000, { signal: stop.signal })).rejects.toThrow('stopped');
  });
});

describe('minimumListingCalls', () => {
  it('counts one page, then one per limit - 1 further objects', () => {
    expect([0, 1, 299, 300, 301, 598, 599, 600, 897, 898].map((n) => minimumListingCalls(n, 300)))
      .toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4]);
  });
});
