/**
 * Full collections paced by how far a phase grows the heap. A plan's load and
 * read promote the garbage of each file and page they were working on into
 * the old generation, and V8 lets the old generation reach two to four times
 * what is live before it collects on its own: at 10k rules + 50k IP values
 * the read left 30 MB in use for 15 MB live, and the plan grew on top of it.
 * Asked at each step of a phase (a page read, the plan about to start), this
 * collects once the heap in use has grown by half since the last collection,
 * and by at least `MIN_STEP_BYTES`: geometric, so the collections' work stays
 * proportional to what the phase keeps (issue 49). Not asked by a load: a
 * collection there promotes the file in progress, and pacing its files cost
 * 0.5 to 1 s and a higher peak.
 */
import { getHeapStatistics } from 'node:v8';
import { garbageCollector } from './garbage-collector.js';

/** Growth since the last collection that triggers one, as a share of what was in use after it. */
const GROWTH = 0.5;
/** Below this, a collection costs more than the memory it gives back. */
const MIN_STEP_BYTES = 16 * 2 ** 20;

const inUse = (): number => getHeapStatistics().used_heap_size;

export class HeapGrowth {
  private base = inUse();

  /** Collects when the heap grew past the step; whether it did. */
  check(): boolean {
    const used = inUse();
    if (used - this.base < Math.max(MIN_STEP_BYTES, this.base * GROWTH)) return false;
    const collect = garbageCollector();
    if (!collect) return false;
    collect();
    this.base = inUse();
    return true;
  }
}
