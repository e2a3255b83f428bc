/**
 * One object class as the live reader sees it: which listings hold it, how a
 * listed record becomes model objects, and how the pages of a read make one
 * list (a record read twice keeps its later version). read.ts runs every
 * class's listings at once, bounded, and fails the whole read on any error.
 */
import type { ServiceApi } from '../../api/service.js';
import type { Interner } from '../../model/interner.js';
import type { JournalEvent, JournalWrite } from '../journal-event.js';
import type { ListingKey } from '../listing-key.js';
import type { PageScheduler, PagingOptions } from '../paging.js';

/** What every listing of a read shares. */
export interface ReadContext {
  readonly api: ServiceApi;
  /** Aborted when any listing fails, or the caller stops. */
  readonly signal: AbortSignal;
  /** Bounds the page calls in flight over all listings. */
  readonly schedule: PageScheduler;
  /** Shares the strings every record repeats. */
  readonly intern: Interner;
  /** Paging of one listing: its name in errors, the shared schedule, the pages its expected size fills at once. */
  paging(key: ListingKey, what: string): PagingOptions;
  /** Tells how many records a listing held (listing-sizes.ts). */
  listed(key: ListingKey, records: number): void;
  /** Tells when a listed object of the client last changed (unix seconds), where its listing says. */
  changed(client: number, seconds: unknown): void;
}

/** One read of a class: the listings of each client, then what they held. */
export interface ClassRead<T> {
  /** The reads of one client's listings, each reading one listing in full. */
  listings(client: number): (() => Promise<void>)[];
  /** Every object read, one per id (and value), sorted by id. */
  result(): T[];
}

/** The core every class brings: how its listings are read. What it can do beyond is a capability below. */
export interface LiveClass<T> {
  read(context: ReadContext): ClassRead<T>;
  /** The listings of each client that hold the class (`rules`; `black`, `white`, `gray`), as listing keys name them. */
  readonly listingNames: readonly string[];
}

/** A class that says how full its listings are once the account matches the policies (listing-sizes.ts); without, a read pages them one by one. */
export interface LiveClassWithListingSizes<T, D = unknown> extends LiveClass<T> {
  /** The fewest objects each of the class's listings holds once the account matches `declared`. */
  listedAtLeast(declared: readonly D[]): ReadonlyMap<ListingKey, number>;
}

/** A class whose writes the write journal remembers until its listings show them (write-journal.ts); without, its listing is read as it is. */
export interface LiveClassWithJournal<T> extends LiveClass<T> {
  readonly journal: JournalSide<T>;
}

/** Every capability: what the built-in classes bring. */
export type BuiltInLiveClass<T, D> = LiveClassWithListingSizes<T, D> & LiveClassWithJournal<T>;

export const hasListingSizes = <T>(reader: LiveClass<T>): reader is LiveClassWithListingSizes<T> => 'listedAtLeast' in reader;
export const hasJournal = <T>(reader: LiveClass<T>): reader is LiveClassWithJournal<T> => 'journal' in reader;

/**
 * A class's part of the write journal. A create is remembered by what it
 * wrote (its write key), and counted as listed once a listed object carries
 * that key in its mark; a delete by its ids.
 */
export interface JournalSide<T> {
  /** The event kind of each write in the journal file (`rule-created`). */
  readonly events: { readonly [W in JournalWrite]: string };
  /** A created or create-intent event of the file, holding `objects`. */
  event(kind: string, at: number, objects: readonly T[]): JournalEvent;
  /** The objects such an event holds. */
  objects(event: JournalEvent): readonly T[];
  writeKey(object: T): string;
  /** The write key a listed object's mark carries, if any. */
  listedWriteKey(object: T): string | undefined;
  /**
   * For a class whose object is written whole under one id (a rule): how a
   * listed object of a remembered create's id, not carrying its write key,
   * stands to it: `shown` (listed as the service keeps it), or `older` (the
   * listing lags an update in place: the remembered object stands in for
   * it). Undefined where an id holds several objects (an IP object's values).
   */
  readonly sameId: ((listed: T) => 'shown' | 'older') | undefined;
}

/** A listed record, normalized: its id (for paging) and what it holds in the model. */
export interface Normalized<T> {
  readonly id: number;
  readonly objects: readonly T[];
}

export function normalized<T>(id: number, objects: T | readonly T[] | undefined): Normalized<T> {
  return { id, objects: objects === undefined ? [] : Array.isArray(objects) ? objects : [objects as T] };
}

/**
 * One record per id. Offset paging over a listing whose order a write moves
 * (the rule listing is read by `id`, which none does; a server that ignores
 * the order asked for may still move one) shows an object touched between two
 * page calls on both pages; read twice, it would look like its own duplicate
 * and the plan would delete the copy it keeps. The later page holds the newer
 * version.
 */
export function lastById<T extends { readonly id: number }>(records: readonly T[]): T[] {
  if (!repeatsAnId(records)) return records.slice();
  const byId = new Map<number, T>();
  for (const record of records) {
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return [...byId.values()];
}

/**
 * Whether two records share an id. Ids sorted in a typed array rather than
 * put in a map: a listing rarely repeats one, and a map of 50,000 ids cost
 * 5 MB of a read's allocations for nothing.
 */
function repeatsAnId(records: readonly { readonly id: number }[]): boolean {
  const ids = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) ids[i] = (records[i] as { readonly id: number }).id;
  ids.sort();
  for (let i = 1; i < ids.length; i++) if (ids[i] === ids[i - 1]) return true;
  return false;
}
