import { describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { createLimiter } from '../../../src/concurrency.js';
import { fetchAllPages, minimumListingCalls, type PageScheduler } from '../../../src/live/paging.js';

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

/** Holds every call handed in until `release`, then runs them last first: later pages answered before earlier ones. */
function reversingScheduler() {
  const held: (() => void)[] = [];
  const schedule: PageScheduler = (call) => new Promise((resolve, reject) => held.push(() => void call().then(resolve, reject)));
  const release = () => {
    for (const run of held.splice(0).reverse()) run();
  };
  return { schedule, release };
}

describe('fetchAllPages with an expected size', () => {
  it('requests the predicted pages at once and makes exactly the minimum calls when the prediction is right', async () => {
    for (const total of [0, 999, 1000, 1998, 2500, 5000]) {
      const { items, calls, fetchPage } = listing(total);
      let inFlight = 0;
      let mostInFlight = 0;
      const slow = async (offset: number, limit: number) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return fetchPage(offset, limit);
      };
      const read = await fetchAllPages(slow, 1000, { expected: total });
      expect(ids(read)).toEqual(ids(items));
      expect(calls).toHaveLength(minimumListingCalls(total, 1000));
      expect(mostInFlight).toBe(minimumListingCalls(total, 1000));
    }
  });

  it('keeps at most the scheduler\'s bound in flight', async () => {
    const { items, calls, fetchPage } = listing(9000);
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = async (offset: number, limit: number) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      return fetchPage(offset, limit);
    };
    expect(ids(await fetchAllPages(slow, 1000, { expected: 9000, schedule: createLimiter(3) }))).toEqual(ids(items));
    expect(mostInFlight).toBe(3);
    expect(calls).toHaveLength(minimumListingCalls(9000, 1000));
  });

  it('reads on one page after another past an expectation that was too low, still at the minimum calls', async () => {
    const { items, calls, fetchPage } = listing(3500);
    expect(ids(await fetchAllPages(fetchPage, 1000, { expected: 1200 }))).toEqual(ids(items));
    expect(calls).toEqual([0, 999, 1998, 2997]);
  });

  it('stops sending predicted pages once one comes back short, when the expectation was too high', async () => {
    const { items, calls, fetchPage } = listing(1500);
    // One call at a time: each page is answered before the next is sent.
    expect(ids(await fetchAllPages(fetchPage, 1000, { expected: 9000, schedule: createLimiter(1) }))).toEqual(ids(items));
    expect(calls).toEqual([0, 999]);
  });

  it('ignores pages past the end that were already in flight', async () => {
    const { items, calls, fetchPage } = listing(1500);
    expect(ids(await fetchAllPages(fetchPage, 1000, { expected: 4000 }))).toEqual(ids(items));
    expect(calls).toEqual([0, 999, 1998, 2997, 3996]);
  });

  it('reads again from the top when the listing shifts between two predicted pages', async () => {
    const { items, calls, fetchPage } = listing(2500, (all, call) => {
      if (call === 2) all.splice(0, 1);
    });
    const read = await fetchAllPages(fetchPage, 1000, { expected: 2500 });
    expect(ids(read)).toEqual(ids(items));
    expect(read.some((item) => item.id === 2001)).toBe(true);
    expect(calls).toEqual([0, 999, 1998, 0, 999, 1998]);
  });

  it('detects the shift when the later page was answered before the earlier one', async () => {
    // Pages are answered last first; after the first answer (the last page), the console deletes the first object.
    const { items, calls, fetchPage } = listing(2500, (all, call) => {
      if (call === 1) all.splice(0, 1);
    });
    const { schedule, release } = reversingScheduler();
    const reading = fetchAllPages(fetchPage, 1000, { expected: 2500, schedule });
    // Each check answers the page calls waiting, last first, until both reads are done.
    await eventually(() => {
      release();
      return calls.length >= 6;
    }, 'the second read', 10_000, 1);
    const read = await reading;
    expect(ids(read)).toEqual(ids(items));
    expect(calls).toEqual([1998, 999, 0, 1998, 999, 0]);
  });

  it('sees an object that moved to the end between two pages once, in its later version', async () => {
    const { calls, fetchPage } = listing(1500, (all, call) => {
      // updated_at order: the touched object leaves its place and is listed last.
      if (call === 1) all.push({ ...all.splice(1200, 1)[0]!, v: 2 });
    });
    const read = await fetchAllPages(fetchPage, 1000, { expected: 1500 });
    expect(read.filter((item) => item.id === 1201)).toEqual([{ id: 1201, v: 2 }]);
    expect(read).toHaveLength(1500);
    expect(calls).toEqual([0, 999]);
  });

  it('sends no further predicted page after one fails, and fails the read', async () => {
    const calls: number[] = [];
    const failing = async (offset: number) => {
      calls.push(offset);
      if (offset === 0) throw new Error('boom');
      return [];
    };
    await expect(fetchAllPages(failing, 1000, { expected: 9000, schedule: createLimiter(1) })).rejects.toThrow('boom');
    expect(calls).toEqual([0]);
  });
});

describe('minimumListingCalls', () => {
  it('counts one page, then one per limit - 1 further objects', () => {
    expect([0, 1, 299, 300, 301, 598, 599, 600, 897, 898].map((n) => minimumListingCalls(n, 300)))
      .toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4]);
  });
});
