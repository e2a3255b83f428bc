/**
 * V8's garbage collector on demand, for the places that know better than
 * its heuristics when a heap is mostly garbage: a plan between its read and
 * its diff (reconcile/prepare.ts), the daemon going idle
 * (daemon/release-memory.ts), and a window read of hits between its pages
 * (hits/read-window.ts). Node exposes no collection API without
 * `--expose-gc`, so the flag is set at run time and `gc` fetched from a fresh
 * context (what Jest's leak detector does).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type Collect = (options?: { type?: 'major' | 'minor' }) => void;

/** `null` once getting `gc` failed: a Node release that refuses the flag costs memory, never the caller. */
let gc: Collect | undefined | null;

/** The collector, or undefined where Node will not give it. */
export function garbageCollector(): Collect | undefined {
  if (gc === null) return undefined;
  try {
    if (!gc) {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Collect;
    }
    return gc;
  } catch {
    gc = null;
    return undefined;
  }
}

/** `times` full collections (the second frees what the first only unlinked); whether it collected. */
export function collectGarbage(times = 2): boolean {
  const collect = garbageCollector();
  if (!collect) return false;
  for (let i = 0; i < times; i++) collect();
  return true;
}

/**
 * One minor collection (the young generation only): a few milliseconds at
 * most, in proportion to what is still alive there. Whether it collected.
 */
export function collectYoungGarbage(): boolean {
  const collect = garbageCollector();
  if (!collect) return false;
  collect({ type: 'minor' });
  return true;
}
