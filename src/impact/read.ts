/**
 * The hits a plan's impact needs, and no more: for each client its changes
 * touch, in the window, narrowed to the applications the changes name (all of
 * them when one is account-wide), read in time slices (hits/read.ts). The
 * experimental regexes' hits are read only for a client whose changes involve
 * one. A listing that fails, or is stopped (hits/read-window.ts: outside its
 * window, out of order, repeated, or past the hits the whole impact may keep,
 * HIT_WINDOW_MAX over every read), leaves that client's evidence out and
 * makes the impact incomplete, saying why; it never fails the plan.
 */
import type { ServiceApi } from '../api/service.js';
import type { HitWindow } from '../hits/read.js';
import { HIT_WINDOW_MAX, readHitWindow } from '../hits/read-window.js';
import type { Change } from '../model/change.js';
import { collectGarbage } from '../garbage-collector.js';
import { hasImpactSide, impactClassOf } from './classes/index.js';
import { RequestIndex } from './requests.js';
import { planClassOf } from '../plan/classes/index.js';

export interface ImpactHits {
  readonly seen: RequestIndex;
  /** The experimental regexes' dry run. */
  readonly experimental: RequestIndex;
  readonly listings: number;
  /** Why some evidence is missing (a failed listing), if any is. */
  readonly incomplete?: string;
}

export interface HitsWanted {
  /** The applications of the client's changes; undefined when one is account-wide. */
  readonly applications?: ReadonlySet<number>;
  /** A change involves an experimental regex (its dry run is the evidence). */
  readonly experimental: boolean;
}

/** What to read per client, from the changes. */
export function hitsWanted(changes: readonly Change[]): Map<number, HitsWanted> {
  const wanted = new Map<number, { applications: Set<number> | undefined; experimental: boolean }>();
  for (const change of changes) {
    // A class without an impact side needs no hits: its changes are not evaluated.
    if (!hasImpactSide(change.kind)) continue;
    const client = planClassOf(change).client(change);
    const entry = wanted.get(client) ?? { applications: new Set<number>(), experimental: false };
    wanted.set(client, entry);
    const objectClass = impactClassOf(change);
    const applications = objectClass.applications(change);
    if (applications === undefined) entry.applications = undefined;
    else for (const app of applications) entry.applications?.add(app);
    if (objectClass.experimental(change)) entry.experimental = true;
  }
  return new Map([...wanted].map(([client, w]) => [client, { ...(w.applications ? { applications: w.applications } : {}), experimental: w.experimental }]));
}

/**
 * How much the heap may grow over the read before it ends with a full
 * collection. The old generation holds garbage the young one cannot free
 * (JSON.parse makes its short values, 3 per hit, there; the tables only
 * adding needed), and V8 lets the evaluation grow the heap on top of it: at
 * 100k hits the heap ends the read 17 to 20 MB larger, and a collection
 * frees 21 MB in 25 to 30 ms, lowering the peak by about 10 MB. A smaller
 * read is left to V8.
 */
const COLLECT_AFTER_GROWTH_BYTES = 8 * 2 ** 20;

export async function readImpactHits(api: ServiceApi, changes: readonly Change[], window: HitWindow, signal?: AbortSignal): Promise<ImpactHits> {
  const heapBefore = process.memoryUsage().heapUsed;
  const wanted = [...hitsWanted(changes)].sort((a, b) => a[0] - b[0]);
  // Payloads only where a regex change will test them: they are most of a hit's size.
  const values = wanted.some(([, w]) => w.experimental);
  const seen = new RequestIndex({ values });
  const experimental = new RequestIndex();
  let listings = 0;
  // One budget for the whole impact: a read that is kept spends it.
  let budget = HIT_WINDOW_MAX;
  const failures: string[] = [];
  for (const [client, want] of wanted) {
    const filter = want.applications ? { poolid: [...want.applications].sort((a, b) => a - b) } : {};
    const reads: [RequestIndex, boolean][] = [[seen, false], ...(want.experimental ? [[experimental, true] as [RequestIndex, boolean]] : [])];
    for (const [into, isExperimental] of reads) {
      // A listing that fails part way leaves what it read out: evidence from a partial window would pass for the whole.
      const staged = new RequestIndex({ values });
      try {
        const read = { window, experimental: isExperimental, maxHits: budget, ...(signal ? { signal } : {}) };
        listings += await readHitWindow(api, client, filter, read, (hit) => staged.add(client, hit));
        staged.finish();
        into.absorb(staged);
        budget -= staged.size;
      } catch (error) {
        // A stop (Ctrl-C, the deadline) is the command's, not a gap in the evidence.
        if (signal?.aborted) throw error;
        failures.push(`client ${client}${isExperimental ? ' (experimental hits)' : ''}: ${(error as Error).message}`);
      }
    }
  }
  if (process.memoryUsage().heapUsed - heapBefore >= COLLECT_AFTER_GROWTH_BYTES) collectGarbage(1);
  return { seen, experimental, listings, ...(failures.length > 0 ? { incomplete: `the hits listing failed for ${failures.join('; ')}` } : {}) };
}
