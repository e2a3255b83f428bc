/**
 * The `delete-after-list` fault: a console delete landing between two page
 * calls. The listing is answered, then the first object of that page is
 * deleted and unlisted at once (whatever the listing lag), so every later
 * object shifts back by one: a reader that pages by plain offsets never sees
 * one of them.
 */
import type { EmulatorCore } from './core.js';
import { markDeleted, type Stored } from './store.js';

interface Listing {
  records(core: EmulatorCore): Map<number, Stored<unknown>>;
  page(body: unknown): readonly { readonly id: number }[] | undefined;
}

const LISTINGS: Readonly<Record<string, Listing>> = {
  'POST /v1/objects/hint': {
    records: (core) => core.state.hints,
    page: (body) => (Array.isArray(body) ? body as { id: number }[] : undefined),
  },
  'GET /v4/ip_rules': {
    records: (core) => core.state.ipObjects,
    page: (body) => (body as { objects?: { id: number }[] } | undefined)?.objects,
  },
};

/** The routes `delete-after-list` applies to. */
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
