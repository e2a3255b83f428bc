/**
 * Remembers Rampart's own recent writes so that a lagging listing (api-notes:
 * about 3 s) never causes a duplicate create or a repeated delete. Before each
 * plan the live state is overlaid: what we created but is not listed yet counts
 * as present; what we deleted but is still listed counts as gone. An entry is
 * forgotten once the listing agrees with it, or after `ttlMs`.
 *
 * A create is remembered by what was written, not by its identity: its id once
 * known, and before that the fingerprint its mark carries. An older object of
 * the same identity still listed (the rule it replaced, say) never stands in
 * for it, and an object the service stored differently is still recognized.
 */
import { classObjects, objectsByClass, objectsOf, registeredClasses, type ObjectClass, type ObjectClassModels } from '../model/object-class.js';
import type { LiveState } from '../model/state.js';
import { hasJournal, type JournalSide } from './classes/class.js';
import { liveClass } from './classes/index.js';
import { CREATE_ABANDONED, type JournalEvent, type JournalWrite } from './journal-event.js';

export type { JournalEvent } from './journal-event.js';

/** What the journal needs of any class's live object. */
interface Listed {
  readonly id: number;
  readonly client: number;
}

interface Remembered<T> {
  readonly value: T;
  readonly at: number;
  /**
   * Read back from an intent without its completion: the process was killed
   * with the create in flight. Counted as made until the listing shows it or
   * `uncertainMs` pass; `unconfirmedUntil` tells a rerun how long to wait.
   */
  readonly uncertain?: boolean;
}

/** Ids below zero stand for objects whose real id we do not know yet; they are never deleted. */
export const UNKNOWN_ID = -1;

/**
 * A class's journal side, over the objects every class's live objects are;
 * undefined for a class without one: its writes are not remembered, and its
 * listing is read as it is.
 */
function sideOf(kind: ObjectClass): JournalSide<Listed> | undefined {
  const reader = liveClass(kind);
  // Sound: every class's live objects carry their id and client.
  return hasJournal(reader) ? reader.journal as unknown as JournalSide<Listed> : undefined;
}

/** The class and the write an event of the file stands for, and the class's side; undefined for a kind no class names. */
function decode(event: JournalEvent): { readonly kind: ObjectClass; readonly write: JournalWrite; readonly side: JournalSide<Listed> } | undefined {
  for (const kind of registeredClasses()) {
    const side = sideOf(kind);
    if (!side) continue;
    for (const write of Object.keys(side.events) as JournalWrite[]) if (side.events[write] === event.kind) return { kind, write, side };
  }
  return undefined;
}

export class WriteJournal {
  /** Told of every write as it is recorded; a journal file appends it. */
  sink?: (event: JournalEvent) => void;
  /** Each class's creates by write key, and deletes by id (the time each was made). */
  private readonly created = new Map<ObjectClass, Map<string, Remembered<Listed>>>();
  private readonly deleted = new Map<ObjectClass, Map<number, number>>();

  constructor(
    private readonly ttlMs = 120_000,
    private readonly now: () => number = Date.now,
    private readonly uncertainMs = 15_000,
  ) {}

  get size(): number {
    let size = 0;
    for (const map of [...this.created.values(), ...this.deleted.values()]) size += map.size;
    return size;
  }

  recordCreated<K extends ObjectClass>(kind: K, objects: readonly ObjectClassModels[K]['live'][]): void {
    const side = sideOf(kind);
    if (side) this.replay(side.event(side.events.created, this.now(), objects));
  }

  recordDeleted(kind: ObjectClass, ids: readonly number[]): void {
    const side = sideOf(kind);
    if (side) this.replay({ kind: side.events.deleted, at: this.now(), ids });
  }

  /** Before a create is sent: only the journal file needs it (see `replay`). */
  recordCreateIntent<K extends ObjectClass>(kind: K, objects: readonly ObjectClassModels[K]['live'][]): void {
    const side = sideOf(kind);
    if (side) this.sink?.(side.event(side.events['create-intent'], this.now(), objects));
  }

  /** A create refused outright: its intent must not count as a write on a rerun. */
  recordCreateAbandoned(keys: readonly string[]): void {
    this.replay({ kind: CREATE_ABANDONED, at: this.now(), keys });
  }

  /**
   * Records an event: a new write, or one read back from a journal file.
   * False for an event no class names (a line this Rampart cannot read).
   */
  replay(event: JournalEvent, fromFile = false): boolean {
    if (event.kind === CREATE_ABANDONED) {
      for (const key of event.keys ?? []) {
        for (const created of this.created.values()) if (created.get(key)?.uncertain) created.delete(key);
      }
      if (!fromFile) this.sink?.(event);
      return true;
    }
    const decoded = decode(event);
    if (!decoded) return false;
    const { side } = decoded;
    const created = mapOf(this.created, decoded.kind);
    if (decoded.write === 'create-intent') {
      // A process killed with the create in flight cannot know whether it landed: read back without its
      // completion, the create counts as made for `uncertainMs` (longer than the listing lag), then the listing
      // decides. Backdated so it expires `uncertainMs` after the intent; a completion read later replaces it.
      const at = event.at - (this.ttlMs - this.uncertainMs);
      if (at >= this.now() - this.ttlMs) for (const value of side.objects(event)) created.set(side.writeKey(value), { value, at, uncertain: true });
      return true;
    }
    if (event.at < this.now() - this.ttlMs) return true;
    if (decoded.write === 'created') for (const value of side.objects(event)) created.set(side.writeKey(value), { value, at: event.at });
    else for (const id of event.ids ?? []) mapOf(this.deleted, decoded.kind).set(id, event.at);
    if (!fromFile) this.sink?.(event);
    return true;
  }

  /**
   * How long until the last create whose outcome a killed process never
   * heard stops counting as made (ms), or undefined when there is none. A rerun
   * that plans before then would take a create that never happened as done; it
   * waits and reads the listing again instead (reconcile/prepare.ts).
   */
  unconfirmedForMs(): number | undefined {
    this.forgetExpired();
    let until: number | undefined;
    for (const created of this.created.values()) {
      for (const { at, uncertain } of created.values()) {
        if (uncertain) until = Math.max(until ?? 0, at + this.ttlMs);
      }
    }
    return until === undefined ? undefined : Math.max(0, until - this.now());
  }

  /** Every write still remembered, oldest first: what a compacted journal file holds. */
  events(): JournalEvent[] {
    this.forgetExpired();
    const undated = (at: number) => at + (this.ttlMs - this.uncertainMs);
    const events: JournalEvent[] = [];
    // Only a class with a journal side has remembered writes.
    for (const [kind, created] of this.created) {
      const side = sideOf(kind);
      if (!side) continue;
      for (const { value, at, uncertain } of created.values()) {
        events.push(uncertain ? side.event(side.events['create-intent'], undated(at), [value]) : side.event(side.events.created, at, [value]));
      }
    }
    for (const [kind, deleted] of this.deleted) {
      const side = sideOf(kind);
      if (side) for (const [id, at] of deleted) events.push({ kind: side.events.deleted, at, ids: [id] });
    }
    return events.sort((a, b) => a.at - b.at);
  }

  /** The live state as it will be once the listing catches up with our writes. */
  overlay(live: LiveState): LiveState {
    this.forgetExpired();
    // A daemon in step remembers no write: its listing is the state, without indexing 60k objects every cycle.
    if (this.size === 0) return live;
    const objects = objectsByClass<'live'>(<K extends ObjectClass>(kind: K) => {
      // Sound: the overlay keeps the class's listed objects and adds its remembered ones, all of the class.
      return this.overlayClass(kind, objectsOf<K, 'live'>(live, kind), live.clients) as unknown as readonly ObjectClassModels[K]['live'][];
    });
    return { ...live, ...classObjects(objects) };
  }

  /** One class's listed objects with its remembered writes laid over them; forgets what the listing shows. */
  private overlayClass(kind: ObjectClass, listed: readonly Listed[], clients: readonly number[]): Listed[] {
    const side = sideOf(kind);
    const created = mapOf(this.created, kind);
    const deleted = mapOf(this.deleted, kind);
    if (!side || (created.size === 0 && deleted.size === 0)) return listed as Listed[];
    const objects = listed.filter((object) => !deleted.has(object.id));
    const listedKeys = new Set(listed.flatMap((object) => side.listedWriteKey(object) ?? []));
    const sameId = side.sameId;
    const byId = sameId ? new Map(listed.map((object) => [object.id, object])) : undefined;
    for (const [key, { value }] of created) {
      const listedAs = byId && value.id >= 0 ? byId.get(value.id) : undefined;
      if (listedKeys.has(key) || (listedAs && sameId?.(listedAs) === 'shown')) {
        created.delete(key);
      } else if (listedAs) {
        // Updated in place, listed as it was before: the listing lags, the write stands.
        const at = objects.indexOf(listedAs);
        if (at >= 0) objects[at] = value;
      } else if (clients.includes(value.client)) objects.push(value);
    }
    const listedIds = new Set(listed.map((object) => object.id));
    for (const id of deleted.keys()) if (!listedIds.has(id)) deleted.delete(id);
    return objects;
  }

  private forgetExpired(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const created of this.created.values()) {
      for (const [key, { at }] of created) if (at < cutoff) created.delete(key);
    }
    for (const deleted of this.deleted.values()) {
      for (const [id, at] of deleted) if (at < cutoff) deleted.delete(id);
    }
  }
}

function mapOf<K, V>(maps: Map<ObjectClass, Map<K, V>>, kind: ObjectClass): Map<K, V> {
  let map = maps.get(kind);
  if (!map) maps.set(kind, (map = new Map()));
  return map;
}
