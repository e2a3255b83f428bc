/**
 * Gives a cycle's garbage back once the daemon goes idle. A cycle over a large
 * account allocates hundreds of MB of short-lived objects (listing pages, keys,
 * the plan); V8 collects them only when it next needs room, so between cycles
 * the process stayed at its high-water mark: 237 MB resident at 10k rules +
 * 50k IP values under the manifests' heap cap, of which 78 MB were live. Two
 * full collections as the loop goes idle bring it to 190 MB at once and to
 * 156 MB some 30 s later, as V8 gives the freed pages back (one collection:
 * 224 MB at once), for well under 100 ms per cycle (src/garbage-collector.ts
 * has how a collection is asked for).
 *
 * Full collections leave the young generation as large as start-up or the
 * cycle made it: 16 or 32 MB, all of it resident, in a daemon whose whole heap
 * holds about 20 MB. V8 shrinks it only at a collection made once its own
 * record shows little allocation for a while, so 1 s into the idle time a
 * second step runs minor collections (an empty young generation: a few ms in
 * all) until V8 has shrunk it. Idle daemon over 300 rules: 94 → 80 MB resident
 * (median of five).
 *
 * Node.js 22 and later pool the pages a collection frees (garbage-collector.ts):
 * the collection as the loop goes idle is one that hands them back.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { garbageCollector, releaseGarbage } from '../garbage-collector.js';

/** How long the daemon stays idle before the young generation is shrunk: V8 must see the allocation rate fall first. */
const SHRINK_DELAY_MS = 1_000;
/** V8 shrinks after about ten (it weighs its last ten collections); past this many it will not. */
const MAX_MINOR_COLLECTIONS = 16;

/** The young generation's size in bytes: both semi-spaces, committed whether used or not. */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** Minor collections until V8 shrinks the young generation, at most MAX_MINOR_COLLECTIONS; how many ran. */
export function shrinkYoungGeneration(): number {
  const collect = garbageCollector();
  if (!collect) return 0;
  const before = youngGenerationBytes();
  let runs = 0;
  while (runs < MAX_MINOR_COLLECTIONS && youngGenerationBytes() >= before) {
    collect({ type: 'minor' });
    runs += 1;
  }
  return runs;
}

/** What the daemon's loop calls as it goes idle and as a cycle starts. */
export class IdleMemory {
  private timer: NodeJS.Timeout | undefined;

  /** The cycle is over: its garbage now, the young generation once V8 sees the daemon idle. */
  idle(): void {
    this.busy();
    if (!releaseGarbage()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      shrinkYoungGeneration();
    }, SHRINK_DELAY_MS);
    // An idle daemon waits on its server and watcher; this timer alone keeps nothing alive.
    this.timer.unref();
  }

  /** A cycle starts: collecting now would only promote its objects early. */
  busy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
