import type { IpChange, DeletedIpObject, CreateIp, IpAttributesBefore } from '../model/ip-change.js';
import { ipGroupKey, ipSlotKey, type DesiredIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { appendTo } from './append.js';
import { ipSlots, type IpSlot } from './ip-slots.js';
import { compareStrings } from '../model/compare.js';
import { isPlaceholder, ownerSuffix, type Note } from './notes.js';

export interface IpDiff {
  readonly changes: IpChange[];
  readonly unchanged: number;
  readonly notes: Note[];
  /** Live values held by objects carrying our owner mark. */
  readonly owned: number;
}

/**
 * What happens to one owned live value; one record per kind, shared. A value
 * with none recorded is kept: a no-op plan records nothing.
 */
type Fate =
  | { readonly kind: 'moved' }
  | { readonly kind: 'remove'; readonly reason: 'not-declared' | 'duplicate' };

const MOVED: Fate = { kind: 'moved' };
const REMOVE: Readonly<Record<'not-declared' | 'duplicate', Fate>> = {
  'not-declared': { kind: 'remove', reason: 'not-declared' },
  duplicate: { kind: 'remove', reason: 'duplicate' },
};

interface PendingCreate {
  readonly entry: DesiredIpEntry;
  readonly force: boolean;
  /** Owned objects the value moves out of. */
  readonly from: readonly LiveIpEntry[];
}

const NO_ENTRIES: readonly LiveIpEntry[] = [];

export function sameIpAttributes(a: IpEntry, b: IpEntry): boolean {
  return a.expiresAt === b.expiresAt && (a.reason ?? '') === (b.reason ?? '');
}

function difference(a: IpEntry, b: IpEntry): string {
  const expiry = a.expiresAt !== b.expiresAt;
  const reason = (a.reason ?? '') !== (b.reason ?? '');
  return expiry && reason ? 'expiry and reason' : expiry ? 'expiry' : 'reason';
}

const byId = (a: LiveIpEntry, b: LiveIpEntry): number => a.id - b.id;

/**
 * IP-list values (one entry per value). Deleting an object deletes every value
 * it holds, so values of a doomed object that must stay are first moved out by
 * a forced create; a value held by an object we do not own is never forced
 * (that would take it from its owner) and never created again (409).
 */
export function diffIp(desired: readonly DesiredIpEntry[], live: readonly LiveIpEntry[], owner: string): IpDiff {
  const { slots, owned } = ipSlots(desired, live, owner);
  const fate = new Map<LiveIpEntry, Fate>();
  const doomed = new Set<number>();
  const remove = (entries: readonly LiveIpEntry[] | undefined, reason: 'not-declared' | 'duplicate'): void => {
    for (const e of entries ?? NO_ENTRIES) {
      fate.set(e, REMOVE[reason]);
      doomed.add(e.id);
    }
  };
  const creates: PendingCreate[] = [];
  const notes: Note[] = [];
  let unchanged = 0;
  const noteForeign = (want: DesiredIpEntry, foreign: readonly LiveIpEntry[]): void => {
    const exact = foreign.find((f) => sameIpAttributes(f, want));
    const other = exact ?? foreign[0];
    if (!other) return;
    notes.push({
      level: exact ? 'info' : 'warning', kind: 'ip', client: want.client, source: want.source, id: other.id,
      message: exact
        ? `${want.value}: satisfied by unmanaged id ${other.id}${ownerSuffix(other.owner)}`
        : `${want.value}: exists unmanaged with a different ${difference(want, other)} ` +
          `(id ${other.id}${ownerSuffix(other.owner)}); left as is, not created`,
    });
  };

  // 1. Decide every value that does not depend on which duplicate we keep (in any order).
  //    Indexed loops here and below, as in `ipSlots`: each runs once per plan over every value.
  const pending: IpSlot[] = [];
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i] as IpSlot;
    if (s.owned && s.owned.length > 1) s.owned.sort(byId);
    if (s.foreign && s.foreign.length > 1) s.foreign.sort(byId);
    const want = s.desired;
    if (!want) {
      remove(s.owned, 'not-declared');
    } else if (s.owned && holdsSame(s.owned, want)) {
      pending.push(s);
    } else if (s.foreign) {
      unchanged++;
      noteForeign(want, s.foreign);
      remove(s.owned, 'duplicate');
    } else if (s.owned) {
      for (const e of s.owned) fate.set(e, MOVED);
      creates.push({ entry: want, force: true, from: s.owned });
    } else {
      creates.push({ entry: want, force: false, from: NO_ENTRIES });
    }
  }

  // 2. Keep one exact owned copy: in an object not being deleted, then the largest
  //    object (fewer values to move), then the lowest id. A choice reads the
  //    deletes earlier choices made: those slots go in the order of their keys,
  //    never of the input. A lone owned copy with no unmanaged one is kept
  //    whatever was chosen before, and deletes nothing: in any order.
  const kept: IpSlot[] = [];
  const keep = (s: IpSlot, chosen: LiveIpEntry): void => {
    s.chosen = chosen;
    kept.push(s);
  };
  const contested: { slot: IpSlot; key: string }[] = [];
  for (let i = 0; i < pending.length; i++) {
    const s = pending[i] as IpSlot;
    unchanged++;
    if (s.owned?.length === 1 && !s.foreign) keep(s, s.owned[0] as LiveIpEntry);
    else contested.push({ slot: s, key: ipSlotKey(s.desired as DesiredIpEntry) });
  }
  contested.sort((a, b) => compareStrings(a.key, b.key));
  for (const { slot: s } of contested) {
    const want = s.desired as DesiredIpEntry;
    const candidates = s.owned as LiveIpEntry[];
    const chosen = bestCopy(candidates, want, doomed);
    if (s.foreign && doomed.has(chosen.id)) {
      noteForeign(want, s.foreign);
      remove(candidates, 'duplicate');
      continue;
    }
    keep(s, chosen);
    remove(candidates.filter((e) => e !== chosen), 'duplicate');
  }

  // 3. A kept value in an object that is being deleted moves out first.
  for (let i = 0; i < kept.length; i++) {
    const s = kept[i] as IpSlot;
    const chosen = s.chosen as LiveIpEntry;
    if (!doomed.has(chosen.id)) continue;
    const want = s.desired as DesiredIpEntry;
    if (s.foreign) {
      noteForeign(want, s.foreign);
      remove([chosen], 'duplicate');
      continue;
    }
    unchanged--;
    fate.set(chosen, MOVED);
    creates.push({ entry: want, force: true, from: [chosen] });
  }

  const changes: IpChange[] = [...groupCreates(creates), ...batchDeletes(heldBy(live, owner, doomed), doomed, fate)];
  return { changes, unchanged, notes, owned };
}

/** Whether one of the owned copies has the declaration's attributes (a loop: no closure per slot). */
function holdsSame(owned: readonly LiveIpEntry[], want: DesiredIpEntry): boolean {
  for (let i = 0; i < owned.length; i++) if (sameIpAttributes(owned[i] as LiveIpEntry, want)) return true;
  return false;
}

/** The exact copy to keep among several: see step 2 of `diffIp`. */
function bestCopy(owned: readonly LiveIpEntry[], want: DesiredIpEntry, doomed: ReadonlySet<number>): LiveIpEntry {
  const rank = (e: LiveIpEntry): number[] => [isPlaceholder(e) ? 1 : 0, doomed.has(e.id) ? 1 : 0, -e.objectSize, e.id];
  const ranked = owned.filter((e) => sameIpAttributes(e, want)).map((e) => ({ e, rank: rank(e) }));
  ranked.sort((a, b) => compareRanks(a.rank, b.rank));
  return (ranked[0] as { e: LiveIpEntry }).e;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** One create per `ip_range` value; one per `ipGroupKey` and force flag otherwise. */
function groupCreates(pending: readonly PendingCreate[]): CreateIp[] {
  const out: CreateIp[] = [];
  const groups = new Map<string, PendingCreate[]>();
  for (const p of pending) {
    // Each slot makes at most one create: an `ip_range` value is a group of its own.
    if (p.entry.ruleType === 'ip_range') out.push(createOf([p]));
    else appendTo(groups, `${p.force ? 'f' : 'n'}${ipGroupKey(p.entry)}`, p);
  }
  for (const group of groups.values()) {
    if (group.length > 1) group.sort((a, b) => compareStrings(a.entry.value, b.entry.value));
    out.push(createOf(group));
  }
  return out;
}

/**
 * The create of one group of values (sorted by value). Built field by field,
 * in the order the type lists them: a plan makes one per value moved or added
 * (tens of thousands), where spreads and a map per create cost more than the
 * diff around them.
 */
function createOf(group: readonly PendingCreate[]): CreateIp {
  const head = group[0] as PendingCreate;
  const first = head.entry;
  const entries: DesiredIpEntry[] = new Array<DesiredIpEntry>(group.length);
  let from: readonly LiveIpEntry[] = head.from;
  for (let i = 0; i < group.length; i++) {
    const p = group[i] as PendingCreate;
    entries[i] = p.entry;
    if (i > 0 && p.from.length > 0) from = from.length === 0 ? p.from : [...from, ...p.from];
  }
  const { client, list, ruleType, pools, expiresAt } = first;
  const reason = first.reason !== undefined && first.reason !== '' ? first.reason : undefined;
  const force = head.force;
  if (from.length === 0) {
    return reason === undefined
      ? { action: 'create', kind: 'ip', client, list, ruleType, pools, expiresAt, entries, force }
      : { action: 'create', kind: 'ip', client, list, ruleType, pools, expiresAt, reason, entries, force };
  }
  // What each object the values move out of said before, for the plan's old → new.
  const { replaces, before } = movedFrom(from);
  return reason === undefined
    ? { action: 'create', kind: 'ip', client, list, ruleType, pools, expiresAt, entries, force, replaces, before }
    : { action: 'create', kind: 'ip', client, list, ruleType, pools, expiresAt, reason, entries, force, replaces, before };
}

/** The objects values move out of, by id (one each, the last value's copy for an id held twice), and what each held. */
function movedFrom(from: readonly LiveIpEntry[]): { replaces: number[]; before: IpAttributesBefore[] } {
  const only = from[0] as LiveIpEntry;
  if (from.length === 1) return { replaces: [only.id], before: [attributesBefore(only)] };
  const previous = new Map<number, LiveIpEntry>();
  for (const e of from) previous.set(e.id, e);
  const replaces = [...previous.keys()].sort((a, b) => a - b);
  return { replaces, before: replaces.map((id) => attributesBefore(previous.get(id) as LiveIpEntry)) };
}

function attributesBefore(e: LiveIpEntry): IpAttributesBefore {
  return e.reason !== undefined && e.reason !== '' ? { id: e.id, expiresAt: e.expiresAt, reason: e.reason } : { id: e.id, expiresAt: e.expiresAt };
}

/** The owned live values of each object in `ids`, by id: only objects being deleted are looked at. */
function heldBy(live: readonly LiveIpEntry[], owner: string, ids: ReadonlySet<number>): Map<number, LiveIpEntry[]> {
  const objects = new Map<number, LiveIpEntry[]>();
  if (ids.size === 0) return objects;
  for (let i = 0; i < live.length; i++) {
    const entry = live[i] as LiveIpEntry;
    if (entry.owner === owner && ids.has(entry.id)) appendTo(objects, entry.id, entry);
  }
  return objects;
}

/** One batched delete per client holding every doomed object id once. */
function batchDeletes(
  objects: ReadonlyMap<number, LiveIpEntry[]>,
  doomed: ReadonlySet<number>,
  fate: ReadonlyMap<LiveIpEntry, Fate>,
): IpChange[] {
  const byClient = new Map<number, DeletedIpObject[]>();
  // A typed array sorts numbers as numbers, natively: ids are integers.
  const ids = Float64Array.from(doomed).sort();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (isPlaceholder({ id })) continue;
    // `heldBy` made these lists for this loop alone: sorted in place.
    const held = objects.get(id);
    if (!held || held.length === 0) continue;
    if (held.length > 1) held.sort(byValue);
    const first = held[0] as LiveIpEntry;
    const entries: LiveIpEntry[] = [];
    const moved: LiveIpEntry[] = [];
    let undeclared = false;
    for (let j = 0; j < held.length; j++) {
      const e = held[j] as LiveIpEntry;
      const f = fate.get(e);
      if (f?.kind === 'moved') moved.push(e);
      else entries.push(e);
      if (f?.kind === 'remove' && f.reason === 'not-declared') undeclared = true;
    }
    const object: DeletedIpObject = {
      id, reason: undeclared ? 'not-declared' : 'duplicate', entries, moved,
      size: Math.max(first.objectSize, held.length),
    };
    const list = byClient.get(first.client);
    if (list) list.push(object);
    else byClient.set(first.client, [object]);
  }
  return [...byClient.entries()].map(([client, objs]) => ({ action: 'delete', kind: 'ip', client, objects: objs }));
}

const byValue = (a: LiveIpEntry, b: LiveIpEntry): number => compareStrings(a.value, b.value);
