/**
 * Every hit of a filter in a window of any length, read newest first in time
 * slices (one filter pages through at most HIT_OFFSET_CAP hits), and bounded
 * whatever the listing answers. The slicing relies on what the service
 * promises: hits inside the window asked for, newest first, each once. A
 * listing that breaks that (a broken proxy, a hostile or buggy service: one
 * with ever-later times was read to 1.24 GB) is stopped with a
 * `HitListingStoppedError` saying how, as is a window holding more hits than
 * one read may keep (HIT_WINDOW_MAX); the caller leaves that read's evidence
 * out and says the impact is incomplete.
 */
import { HIT_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { ApiProtocolError } from '../errors.js';
import { collectYoungGarbage } from '../garbage-collector.js';
import { checkedHit, HIT_OFFSET_CAP, HIT_ROUTE, HitListingCapError, standardHitFilter, type HitRead, type ListedHit } from './read.js';
import { SecondIds } from './second-ids.js';

/**
 * The most hits one window read hands over: the impact keeps about 60 bytes
 * of each in its columns (5 to 7 MB held over the bench's 100k hits), so a
 * read stops near 60 MB of index, not when the machine runs out.
 */
export const HIT_WINDOW_MAX = 1_000_000;

export interface WindowRead extends HitRead {
  /** Most hits to hand over (HIT_WINDOW_MAX by default); past it the read stops. */
  readonly maxHits?: number;
}

/**
 * Every hit of `client` matching `filter` in the window, each handed to
 * `each` (checked) as soon as its page arrives; returns the listing calls it
 * took. A slice still full at the cap ends at its last (oldest) hit's second,
 * and the next slice ends at that second: the hits of that second already
 * handed over are known by id and skipped, so each hit is handed over once.
 * Only a single second holding more hits than the cap cannot be read whole:
 * that throws `HitListingCapError`.
 */
export async function readHitWindow(
  api: ServiceApi, client: number, filter: Readonly<Record<string, unknown>>, read: WindowRead, each: (hit: ListedHit) => void,
): Promise<number> {
  const maxHits = read.maxHits ?? HIT_WINDOW_MAX;
  const stop = (why: string) => new HitListingStoppedError(client, why);
  let listings = 0;
  let handed = 0;
  let to = read.window.to;
  // The ids handed over at the oldest second seen: the next slice reads that second again.
  let second = Number.POSITIVE_INFINITY;
  const atSecond = new SecondIds();
  for (;;) {
    const full = { ...standardHitFilter({ from: read.window.from, to }, read), ...filter };
    const seenBefore = atSecond;
    // A repeat inside a slice is none that slicing explains. Newest first (checked below), a hit listed
    // twice is listed twice within one second: the ids of the current second are all it takes to see it.
    const inSecond = new SecondIds();
    let previous = Number.POSITIVE_INFINITY;
    let listed = 0;
    for (let offset = 0; ; offset += HIT_PAGE_LIMIT) {
      if (offset + HIT_PAGE_LIMIT > HIT_OFFSET_CAP) break;
      const page = await api.listHits(client, full, offset, HIT_PAGE_LIMIT, read.signal ? { signal: read.signal } : {});
      listings += 1;
      listed += page.length;
      if (page.length > HIT_PAGE_LIMIT) throw stop(`a page held ${page.length} hits, more than the ${HIT_PAGE_LIMIT} asked for`);
      for (const record of page) {
        const hit = checkedHit(record);
        if (!(hit.time >= read.window.from && hit.time <= to)) {
          throw stop(`hit ${idOf(hit)} is of ${when(hit.time)}, outside the window asked for (${when(read.window.from)} to ${when(to)})`);
        }
        if (hit.time > previous) throw stop(`hit ${idOf(hit)} of ${when(hit.time)} came after one of ${when(previous)}: the listing is not newest first, which its slicing relies on`);
        if (hit.time !== previous) inSecond.clear();
        previous = hit.time;
        if (!inSecond.add(hit.id)) throw stop(`hit ${idOf(hit)} was listed twice in one time slice`);
        if (hit.time === to && seenBefore.has(hit.id)) continue;
        if (hit.time !== second) {
          second = hit.time;
          // Emptied, not replaced: past `to`, this slice no longer asks `seenBefore`, the same table.
          atSecond.clear();
        }
        atSecond.add(hit.id);
        if (++handed > maxHits) throw stop(`the window holds more than ${maxHits.toLocaleString('en-US')} hits, the most one read keeps: narrow --impact-window`);
        each(hit);
      }
      // Its hits handed over, the page is garbage, as is most of the young generation. V8's own minor
      // collection comes when that is full, so in the middle of a page: the page it finds alive moves
      // to the old generation and stays there until a full collection (none in a read of 100k hits).
      // Collected here, the page dies young, and so does its unzipped body outside the heap.
      collectYoungGarbage();
      if (page.length < HIT_PAGE_LIMIT) return listings;
    }
    // Still full at the cap: the next slice ends at the last second read, unless the whole slice was that second.
    if (second >= to) throw new HitListingCapError(client, listed);
    to = second;
  }
}

/** A listing stopped because it broke what its slicing relies on, or passed the hits one read may keep. */
export class HitListingStoppedError extends ApiProtocolError {
  constructor(readonly client: number, readonly why: string) {
    super(`${HIT_ROUTE} of client ${client} was stopped: ${why}`, { route: HIT_ROUTE });
  }
}

/** A hit as the messages name it, `index/id`: made only for a message. */
function idOf(hit: ListedHit): string {
  return `${hit.id[0]}/${hit.id[1]}`;
}

/** A second of the window as a reader names it. */
function when(seconds: number): string {
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : String(seconds);
}
