/**
 * Writes landing between two page calls of a listing, from another writer
 * (the console, another tool):
 * - `delete-after-list`: the page is answered, then its first object is
 *   deleted and unlisted at once (whatever the listing lag), so every later
 *   object shifts back by one: a reader that pages by plain offsets never
 *   sees one of them.
 * - `update-after-list`: the page is answered, then its first object is
 *   changed. A rule is updated in place (its `updated_at` bumped, listed at
 *   once): a listing ordered by `updated_at` moves it to the end and shifts
 *   the rest back by one, one ordered by `id` does not move. An IP object
 *   cannot change in place (v4 has no update): the console replaces it, a
 *   delete and a create with a new id.
 */
import type { EmulatorCore } from './core.js';
import { markDeleted, type HintRecord, type IpObject, type Stored } from './store.js';

interface Listing {
  records(core: EmulatorCore): Map<number, Stored<unknown>>;
  page(body: unknown): readonly { readonly id: number }[] | undefined;
  /** Another writer's change to the object, as the service's API allows one. */
  update(core: EmulatorCore, id: number): void;
}

const LISTINGS: Readonly<Record<string, Listing>> = {
  'POST /v1/objects/hint': {
    records: (core) => core.state.hints,
    page: (body) => (Array.isArray(body) ? body as { id: number }[] : undefined),
    update: (core, id) => {
      const stored = core.state.hints.get(id);
      if (!stored) return;
      const record: HintRecord = { ...stored.record, updated_at: core.nowSeconds() + 1 };
      core.state.hints.set(id, { record, listedFromMs: 0 });
    },
  },
  'GET /v4/ip_rules': {
    records: (core) => core.state.ipObjects,
    page: (body) => (body as { objects?: { id: number }[] } | undefined)?.objects,
    update: (core, id) => {
      const stored = core.state.ipObjects.get(id);
      if (!stored) return;
      markDeleted(core.state.ipObjects, id, core.nowMs(), 0);
      const replacement: IpObject = { ...stored.record, id: core.state.nextIds.ip++, created_at: core.nowSeconds() };
      core.state.ipObjects.set(replacement.id, { record: replacement, listedFromMs: 0 });
    },
  },
};

/** The routes `delete-after-list` and `update-after-list` apply to. */
export const SHIFTABLE_LISTINGS: readonly string[] = Object.keys(LISTINGS);

/** Deletes the first object of the answered page; its id, or undefined when the page was empty. */
export function deleteFirstListed(core: EmulatorCore, route: string, body: unknown): number | undefined {
  const listing = LISTINGS[route];
  const first = listing?.page(body)?.[0];
  if (!listing || !first) return undefined;
  markDeleted(listing.records(core), first.id, core.nowMs(), 0);
  core.changed();
  return first.id;
}

/** Changes the first object of the answered page as another writer would; its id, or undefined when the page was empty. */
export function updateFirstListed(core: EmulatorCore, route: string, body: unknown): number | undefined {
  const listing = LISTINGS[route];
  const first = listing?.page(body)?.[0];
  if (!listing || !first) return undefined;
  listing.update(core, first.id);
  core.changed();
  return first.id;
}
