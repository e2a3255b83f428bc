/**
 * The IP half of the adoption pass (adopt.ts): unmanaged IP values that
 * satisfy a declaration, and unmanaged values held in another list for
 * overlapping applications. Adopting a value is a forced create in its own
 * list with the owner mark (the service moves the value out of the object
 * holding it); moving one deletes the unmanaged holder once the value exists
 * in the declared list, and only when every value the holder has is adopted
 * or moved too (deleting an object deletes all its values).
 */
import { mapAction } from '../model/by-action.js';
import type { Change } from '../model/change.js';
import type { IpChange, DeleteIp, DeletedIpObject, IpAttributesBefore, CreateIp, AdoptIp } from '../model/ip-change.js';
import { ipGroupKey, ipSlotKey, ipValueKey, LIST_LABELS, poolsOverlap, type DesiredIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import { compareStrings } from '../model/compare.js';
import type { AdoptionInput, Conflict, UnmanagedMatch } from './adoption.js';
import { sameIpAttributes } from './diff-ip.js';
import { appendTo } from './append.js';


interface IpPass {
  desired: DesiredIpEntry[];
  live: LiveIpEntry[];
  changes: Change[];
  unmanaged: UnmanagedMatch[];
  conflicts: Conflict[];
  moves: Map<string, number[]>;
  claimed: ReadonlySet<LiveIpEntry>;
}

interface PendingAdopt {
  readonly want: DesiredIpEntry;
  readonly from: LiveIpEntry;
  /** Every unmanaged object holding the value in that list: a forced create takes it out of each. */
  readonly ids: readonly number[];
}

function attributeChanges(want: IpEntry, live: IpEntry): string[] {
  return [...(want.expiresAt !== live.expiresAt ? ['expires'] : []), ...((want.reason ?? '') !== (live.reason ?? '') ? ['reason'] : [])];
}

export function adoptIpEntries({ desiredIp, liveIp, owner, adopt }: AdoptionInput): IpPass {
  // An account Rampart manages entirely costs nothing here.
  if (!liveIp.some((e) => e.owner === undefined)) {
    return { desired: [...desiredIp], live: [...liveIp], changes: [], unmanaged: [], conflicts: [], moves: new Map(), claimed: new Set() };
  }
  const ownedSlots = new Set<string>();
  const bySlot = new Map<string, LiveIpEntry[]>();
  const byValue = new Map<string, LiveIpEntry[]>();
  const holders = new Map<number, LiveIpEntry[]>();
  const push = <K>(map: Map<K, LiveIpEntry[]>, key: K, e: LiveIpEntry): void => {
    const list = map.get(key);
    if (list) list.push(e);
    else map.set(key, [e]);
  };
  for (const e of liveIp) {
    if (e.owner === owner) ownedSlots.add(ipSlotKey(e));
    if (e.owner !== undefined) continue;
    push(bySlot, ipSlotKey(e), e);
    push(byValue, ipValueKey(e), e);
    push(holders, e.id, e);
  }
  const paired = new Set<LiveIpEntry>();
  const moved = new Map<LiveIpEntry, DesiredIpEntry>();
  const shadowed = new Set<LiveIpEntry>();
  const pass: IpPass = { desired: [], live: [], changes: [], unmanaged: [], conflicts: [], moves: new Map(), claimed: new Set() };
  const pending: PendingAdopt[] = [];
  const byId = (a: LiveIpEntry, b: LiveIpEntry) => a.id - b.id;

  // Valid policies declare a value once per list and applications, so no two declarations compete for one object.
  for (const want of desiredIp) {
    const slot = ipSlotKey(want);
    const listed = bySlot.get(slot);
    if (!listed && !byValue.has(ipValueKey(want))) {
      pass.desired.push(want);
      continue;
    }
    // Unmanaged copies of a value an owned object serves (one adopted while the listing lags, say): still declared.
    if (listed && ownedSlots.has(slot)) for (const e of listed) shadowed.add(e);
    const same = ownedSlots.has(slot) || !listed ? [] : listed.filter((e) => !paired.has(e)).sort(byId);
    const exact = same.find((e) => sameIpAttributes(e, want));
    // With --adopt, a value held with another expiry or reason is taken over and changed by the same forced create.
    const found = exact ?? (adopt ? same[0] : undefined);
    if (found) {
      paired.add(found);
      if (adopt) {
        for (const e of same) paired.add(e);
        pending.push({ want, from: found, ids: same.map((e) => e.id) });
      }
      else pass.unmanaged.push({ kind: 'ip', client: want.client, source: want.source, id: found.id, value: want.value });
      continue;
    }
    pass.desired.push(want);
    const elsewhere = (byValue.get(ipValueKey(want)) ?? [])
      .filter((e) => e.list !== want.list && poolsOverlap(e.pools, want.pools) && !paired.has(e) && !moved.has(e)).sort(byId);
    if (elsewhere.length === 0) continue;
    if (adopt) {
      for (const e of elsewhere) moved.set(e, want);
      continue;
    }
    const [other] = elsewhere as [LiveIpEntry];
    pass.conflicts.push({
      kind: 'ip', client: want.client, source: want.source, id: other.id,
      message: `${want.value} is held unmanaged in the ${LIST_LABELS[other.list]} list (id ${other.id}) for overlapping applications; ` +
        `creating it in the ${LIST_LABELS[want.list]} list would put it in both. Adopt it (--adopt: it moves to ${LIST_LABELS[want.list]}) or remove it in the console`,
    });
  }

  // With --adopt every paired value is adopted: taken out of its holder by a forced create.
  const adopted = new Set(paired);
  const declaredPools = poolsDeclared(desiredIp);
  const deletes = new Map<number, DeletedIpObject[]>();
  for (const [id, held] of [...holders].filter(([, held]) => held.some((e) => moved.has(e))).sort(([a], [b]) => a - b)) {
    const stranded = held.filter((e) => !moved.has(e) && !adopted.has(e));
    const first = held.find((e) => moved.has(e)) as LiveIpEntry;
    const want = moved.get(first) as DesiredIpEntry;
    // Deleting the holder removes the value for every application it names: each must be declared somewhere.
    const uncovered = held.filter((e) => moved.has(e) && !poolsCovered(e.pools, declaredPools.get(ipValueKey(e))));
    if (stranded.length > 0 || uncovered.length > 0) {
      for (const e of held) moved.delete(e);
      pass.conflicts.push({
        kind: 'ip', client: want.client, source: want.source, id,
        message: stranded.length > 0
          ? `${want.value} is held unmanaged in the ${LIST_LABELS[first.list]} list by id ${id}, which also holds ` +
            `${stranded.map((e) => e.value).sort(compareStrings).join(', ')}, declared nowhere in that list; moving ${want.value} would delete them too. ` +
            'Declare them, or split the object in the console'
          : `${want.value} is held unmanaged in the ${LIST_LABELS[first.list]} list by id ${id} ${describeHolderPools(first.pools)}, ` +
            `more than the policies declare it for; moving it would remove it there too. Declare it for those applications, or split the object in the console`,
      });
      continue;
    }
    const sorted = [...held].sort((a, b) => compareStrings(a.value, b.value));
    const object: DeletedIpObject = {
      id, reason: 'moved', entries: sorted.filter((e) => moved.has(e)), moved: sorted.filter((e) => adopted.has(e)),
      size: Math.max(first.objectSize, held.length),
    };
    appendTo(deletes, first.client, object);
    for (const e of held) if (moved.has(e)) appendTo(pass.moves, ipValueKey(e), id);
  }
  for (const [client, objects] of deletes) pass.changes.push({ action: 'delete', kind: 'ip', client, objects } satisfies DeleteIp);
  pass.changes.unshift(...groupAdoptions(pending));
  pass.live = liveIp.filter((e) => !paired.has(e) && !moved.has(e));
  for (const e of moved.keys()) paired.add(e);
  pass.claimed = new Set([...paired, ...shadowed]);
  return pass;
}

/** Every application each value (`ipValueKey`) is declared for, in any list. */
function poolsDeclared(desiredIp: readonly DesiredIpEntry[]): Map<string, Set<number>> {
  const declared = new Map<string, Set<number>>();
  for (const want of desiredIp) {
    const pools = declared.get(ipValueKey(want)) ?? new Set<number>();
    for (const pool of want.pools) pools.add(pool);
    declared.set(ipValueKey(want), pools);
  }
  return declared;
}

/** Whether declarations for `declared` name every application of `pools` (pool 0: all of them). */
function poolsCovered(pools: readonly number[], declared: ReadonlySet<number> | undefined): boolean {
  if (!declared) return false;
  return declared.has(ALL_APPLICATIONS_POOL) || pools.every((pool) => pool !== ALL_APPLICATIONS_POOL && declared.has(pool));
}

function describeHolderPools(pools: readonly number[]): string {
  return pools.includes(ALL_APPLICATIONS_POOL) ? 'for all applications' : `for application ${pools.join(', ')}`;
}

/** One forced create per `ip_range` value, one per `ipGroupKey` otherwise (as creates are grouped). */
function groupAdoptions(pending: readonly PendingAdopt[]): AdoptIp[] {
  const groups = new Map<string, PendingAdopt[]>();
  for (const p of pending) {
    const key = p.want.ruleType === 'ip_range' ? ipSlotKey(p.want) : ipGroupKey(p.want);
    appendTo(groups, key, p);
  }
  return [...groups.values()].map((group) => {
    group.sort((a, b) => compareStrings(a.want.value, b.want.value));
    const first = (group[0] as PendingAdopt).want;
    const fields = [...new Set(group.flatMap((p) => attributeChanges(p.want, p.from)))].sort(compareStrings);
    return {
      action: 'adopt', kind: 'ip', client: first.client, list: first.list, ruleType: first.ruleType,
      pools: first.pools, expiresAt: first.expiresAt,
      ...(first.reason !== undefined && first.reason !== '' ? { reason: first.reason } : {}),
      entries: group.map((p) => p.want),
      from: [...new Set(group.flatMap((p) => p.ids))].sort((a, b) => a - b),
      fields,
      ...(fields.length > 0 ? { before: beforeOf(group.map((p) => p.from)) } : {}),
    };
  });
}

/** What each unmanaged object held, by id (sorted), for the plan's old → new. */
function beforeOf(objects: readonly LiveIpEntry[]): IpAttributesBefore[] {
  const byId = new Map(objects.map((e) => [e.id, e]));
  return [...byId.keys()].sort((a, b) => a - b).map((id) => {
    const e = byId.get(id) as LiveIpEntry;
    return { id, expiresAt: e.expiresAt, ...(e.reason !== undefined && e.reason !== '' ? { reason: e.reason } : {}) };
  });
}

/**
 * The diff's create of a moved value names the adopted object it replaces, so
 * apply keeps that object when the create fails (no gap in protection).
 */
export function linkMoves(changes: readonly IpChange[], moves: ReadonlyMap<string, readonly number[]>): IpChange[] {
  if (moves.size === 0) return [...changes];
  return mapAction(changes, 'create', (change) => {
    const ids = change.entries.flatMap((e) => moves.get(ipValueKey(e)) ?? []);
    if (ids.length === 0) return change;
    const replaces = [...new Set([...(change.replaces ?? []), ...ids])].sort((a, b) => a - b);
    return { ...change, replaces } satisfies CreateIp;
  });
}
