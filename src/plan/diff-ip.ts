import type { Change, CreateIp, DeletedIpObject } from '../model/change.js';
import { ipGroupKey, type DesiredIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { compareStrings } from '../model/rule.js';
import { compareSources, isPlaceholder, ownerSuffix, type Note } from './notes.js';

export interface IpDiff {
  readonly changes: Change[];
  readonly unchanged: number;
  readonly notes: Note[];
  /** Live values held by objects carrying our owner mark. */
  readonly owned: number;
}

type Fate =
  | { readonly kind: 'keep' }
  | { readonly kind: 'moved' }
  | { readonly kind: 'remove'; readonly reason: 'not-declared' | 'duplicate' };

interface PendingCreate {
  readonly entry: DesiredIpEntry;
  readonly force: boolean;
  /** Owned objects the value moves out of. */
  readonly from: readonly LiveIpEntry[];
}

interface Slot {
  desired?: DesiredIpEntry;
  owned: LiveIpEntry[];
  foreign: LiveIpEntry[];
}

/**
 * The same identity as `ipKey`, cheaper to build (no JSON): the diff builds one
 * per live and desired value. The separator cannot occur in normalized values.
 */
function fastKey(e: IpEntry): string {
  return `${e.client}\u0000${e.list}\u0000${e.ruleType}\u0000${e.value}\u0000${e.pools.join(',')}`;
}

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
  const slots = new Map<string, Slot>();
  const slot = (key: string): Slot => {
    let s = slots.get(key);
    if (!s) {
      s = { owned: [], foreign: [] };
      slots.set(key, s);
    }
    return s;
  };
  for (const entry of desired) {
    const s = slot(fastKey(entry));
    // Declaring one value twice is a validation error upstream; keep the first.
    if (!s.desired || compareSources(entry.source, s.desired.source) < 0) s.desired = entry;
  }
  const objects = new Map<number, LiveIpEntry[]>();
  for (const entry of live) {
    if (entry.owner === owner) {
      slot(fastKey(entry)).owned.push(entry);
      const held = objects.get(entry.id);
      if (held) held.push(entry);
      else objects.set(entry.id, [entry]);
    } else {
      slot(fastKey(entry)).foreign.push(entry);
    }
  }
  // Sorted keys: the choices below depend on earlier ones, never on input order.
  // (The default order is compareStrings' order, without a call per comparison.)
  const keys = [...slots.keys()].sort();

  const fate = new Map<LiveIpEntry, Fate>();
  const doomed = new Set<number>();
  const remove = (entries: readonly LiveIpEntry[], reason: 'not-declared' | 'duplicate'): void => {
    for (const e of entries) {
      fate.set(e, { kind: 'remove', reason });
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

  // 1. Decide every value that does not depend on which duplicate we keep.
  const pending: Slot[] = [];
  for (const key of keys) {
    const s = slots.get(key) as Slot;
    s.owned.sort(byId);
    s.foreign.sort(byId);
    const want = s.desired;
    if (!want) {
      remove(s.owned, 'not-declared');
    } else if (s.owned.some((e) => sameIpAttributes(e, want))) {
      pending.push(s);
    } else if (s.foreign.length > 0) {
      unchanged++;
      noteForeign(want, s.foreign);
      remove(s.owned, 'duplicate');
    } else if (s.owned.length > 0) {
      for (const e of s.owned) fate.set(e, { kind: 'moved' });
      creates.push({ entry: want, force: true, from: s.owned });
    } else {
      creates.push({ entry: want, force: false, from: [] });
    }
  }

  // 2. Keep one exact owned copy: in an object not being deleted, then the largest
  //    object (fewer values to move), then the lowest id.
  const kept: Slot[] = [];
  for (const s of pending) {
    const want = s.desired as DesiredIpEntry;
    const rank = (e: LiveIpEntry): number[] => [isPlaceholder(e) ? 1 : 0, doomed.has(e.id) ? 1 : 0, -e.objectSize, e.id];
    const [chosen] = s.owned
      .filter((e) => sameIpAttributes(e, want))
      .sort((a, b) => compareRanks(rank(a), rank(b)));
    unchanged++;
    if (!chosen || (doomed.has(chosen.id) && s.foreign.length > 0)) {
      noteForeign(want, s.foreign);
      remove(s.owned, 'duplicate');
      continue;
    }
    fate.set(chosen, { kind: 'keep' });
    remove(s.owned.filter((e) => e !== chosen), 'duplicate');
    kept.push(s);
  }

  // 3. A kept value in an object that is being deleted moves out first.
  for (const s of kept) {
    const want = s.desired as DesiredIpEntry;
    const chosen = s.owned.find((e) => fate.get(e)?.kind === 'keep') as LiveIpEntry;
    if (!doomed.has(chosen.id)) continue;
    if (s.foreign.length > 0) {
      noteForeign(want, s.foreign);
      remove([chosen], 'duplicate');
      continue;
    }
    unchanged--;
    fate.set(chosen, { kind: 'moved' });
    creates.push({ entry: want, force: true, from: [chosen] });
  }

  const changes: Change[] = [...groupCreates(creates), ...batchDeletes(objects, doomed, fate)];
  let owned = 0;
  for (const held of objects.values()) owned += held.length;
  return { changes, unchanged, notes, owned };
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
  const groups = new Map<string, PendingCreate[]>();
  for (const p of pending) {
    const key = p.entry.ruleType === 'ip_range'
      ? `${fastKey(p.entry)}|${p.force}`
      : `${ipGroupKey(p.entry)}|${p.force}`;
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  const out: CreateIp[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => compareStrings(a.entry.value, b.entry.value));
    const first = (group[0] as PendingCreate).entry;
    // What each object the values move out of said before, for the plan's old → new.
    const previous = new Map(group.flatMap((p) => p.from).map((e) => [e.id, e]));
    const replaces = [...previous.keys()].sort((a, b) => a - b);
    out.push({
      action: 'create', kind: 'ip', client: first.client, list: first.list, ruleType: first.ruleType,
      pools: first.pools, expiresAt: first.expiresAt,
      ...(first.reason !== undefined && first.reason !== '' ? { reason: first.reason } : {}),
      entries: group.map((p) => p.entry),
      force: group[0]?.force ?? false,
      ...(replaces.length > 0 ? {
        replaces,
        before: replaces.map((id) => {
          const e = previous.get(id) as LiveIpEntry;
          return { id, expiresAt: e.expiresAt, ...(e.reason !== undefined && e.reason !== '' ? { reason: e.reason } : {}) };
        }),
      } : {}),
    });
  }
  return out;
}

/** One batched delete per client holding every doomed object id once. */
function batchDeletes(
  objects: ReadonlyMap<number, readonly LiveIpEntry[]>,
  doomed: ReadonlySet<number>,
  fate: ReadonlyMap<LiveIpEntry, Fate>,
): Change[] {
  const byClient = new Map<number, DeletedIpObject[]>();
  for (const id of [...doomed].sort((a, b) => a - b)) {
    if (isPlaceholder({ id })) continue;
    const held = [...(objects.get(id) ?? [])].sort((a, b) => compareStrings(a.value, b.value));
    const first = held[0];
    if (!first) continue;
    const entries = held.filter((e) => fate.get(e)?.kind !== 'moved');
    const moved = held.filter((e) => fate.get(e)?.kind === 'moved');
    const undeclared = held.some((e) => {
      const f = fate.get(e);
      return f?.kind === 'remove' && f.reason === 'not-declared';
    });
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
