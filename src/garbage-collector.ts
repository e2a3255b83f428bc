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

export type Collect = (options?: { type?: 'major' | 'minor'; flavor?: 'regular' | 'last-resort' }) => void;

/**
 * Whether `gc` takes a flavor: V8 12 (Node.js 22) and later do. V8 11
 * (Node.js 20) ignores the option, and asked for one collects nothing.
 */
const TAKES_FLAVOR = Number(process.versions.v8.split('.')[0]) >= 12;

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
 * Everything collectable, and the memory it freed handed back to the system.
 * Node.js 22 and later keep the pages a collection frees pooled for reuse,
 * and give them back only to a collection asked to reduce memory (`flavor:
 * 'last-resort'`) or when V8's own memory reducer runs, some 8 s into an
 * idle spell. At 10k rules + 50k IP values a daemon between cycles held,
 * after two plain collections and after one such: 164 and 109 MB on Node.js
 * 22, 180 and 123 on 24, 183 and 124 on 26, each in 40 to 110 ms. Where `gc`
 * takes no flavor (Node.js 20, which pools nothing), two plain collections.
 * Whether it collected.
 */
export function releaseGarbage(): boolean {
  if (!TAKES_FLAVOR) return collectGarbage();
  const collect = garbageCollector();
  if (!collect) return false;
  collect({ type: 'major', flavor: 'last-resort' });
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
