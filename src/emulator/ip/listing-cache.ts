/**
 * What the IP listing derives from the whole state, kept between calls while
 * it still holds: a full read of 60,000 objects is 200 page calls, and scanning
 * (expiry housekeeping, then the filter and the sort by id) the whole account
 * for each took the emulator about 5 ms a page. The real service answers pages
 * in parallel; the emulator is one thread, so that time was serialised over
 * every call in flight and dominated a benchmark's read.
 *
 * Both are exact, never approximate: a derivation holds while the state object
 * and its revision (every write bumps it, core.ts) are the ones it was made
 * from, and until the first moment a time-driven change (listing lag,
 * tombstone, expiry) could alter it.
 */
import type { EmulatorCore } from '../core.js';
import { isListed, type EmulatorState, type IpObject, type Stored } from '../store.js';

interface Derived {
  readonly state: EmulatorState;
  readonly revision: number;
  readonly fromMs: number;
  /** The first moment a time-driven change can alter it. */
  readonly untilMs: number;
}

interface Listing extends Derived {
  readonly objects: readonly IpObject[];
}

const housekept = new WeakMap<EmulatorCore, Derived>();
const listings = new WeakMap<EmulatorCore, Map<string, Listing>>();

function holds(derived: Derived | undefined, core: EmulatorCore, nowMs: number): boolean {
  return derived !== undefined && derived.state === core.state && derived.revision === core.revision
    && derived.fromMs <= nowMs && nowMs < derived.untilMs;
}

/** Expired objects vanish at their time (no lag); old tombstones go. */
export function housekeep(core: EmulatorCore): void {
  const now = core.nowMs();
  if (holds(housekept.get(core), core, now)) return;
  let untilMs = Infinity;
  const objects = core.state.ipObjects;
  for (const [id, stored] of objects) {
    const expiresMs = stored.record.expired_at * 1000;
    const goneMs = stored.unlistedFromMs ?? Infinity;
    if (expiresMs <= now || goneMs <= now) objects.delete(id);
    else untilMs = Math.min(untilMs, expiresMs, goneMs);
  }
  housekept.set(core, { state: core.state, revision: core.revision, fromMs: now, untilMs });
}

export interface IpListingFilter {
  readonly clientid: number;
  readonly list: string | null;
  readonly ruleType: string | null;
}

/** The objects the listing shows now, sorted by id (stable paging); call `housekeep` first. */
export function listedIpObjects(core: EmulatorCore, filter: IpListingFilter): readonly IpObject[] {
  const now = core.nowMs();
  let cache = listings.get(core);
  if (!cache) listings.set(core, (cache = new Map()));
  const key = `${filter.clientid} ${filter.list} ${filter.ruleType}`;
  const known = cache.get(key);
  if (holds(known, core, now)) return known!.objects;

  const objects: IpObject[] = [];
  let untilMs = Infinity;
  for (const stored of core.state.ipObjects.values()) {
    const o = stored.record;
    if (o.clientid !== filter.clientid) continue;
    if ((filter.list !== null && o.list !== filter.list) || (filter.ruleType !== null && o.rule_type !== filter.ruleType)) continue;
    untilMs = Math.min(untilMs, nextChangeMs(stored, now));
    if (isListed(stored, now)) objects.push(o);
  }
  // Seeded objects may carry ids out of insertion order.
  objects.sort((a, b) => a.id - b.id);
  cache.set(key, { state: core.state, revision: core.revision, fromMs: now, untilMs, objects });
  return objects;
}

/** When the object next appears, disappears or expires, after `now`. */
function nextChangeMs(stored: Stored<IpObject>, now: number): number {
  const later = (at: number) => (at > now ? at : Infinity);
  return Math.min(later(stored.listedFromMs), later(stored.unlistedFromMs ?? Infinity), later(stored.record.expired_at * 1000));
}
