import { type DesiredIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { compareSources } from './notes.js';

/**
 * One IP identity (`ipKey`: client, list, type, value, pools): its declaration
 * and the live values holding it. Most identities have one declaration and at
 * most one live value: the lists are made only when a second one comes.
 */
export interface IpSlot {
  desired?: DesiredIpEntry;
  owned?: LiveIpEntry[];
  foreign?: LiveIpEntry[];
  /** The owned copy the diff keeps. */
  chosen?: LiveIpEntry;
}

export interface IpSlots {
  /** In no particular order. */
  readonly slots: readonly IpSlot[];
  /** Owned live values by the id of the object holding them. */
  readonly objects: ReadonlyMap<number, readonly LiveIpEntry[]>;
  /** Live values held by objects carrying our owner mark. */
  readonly owned: number;
}

/** Maps nested by the fields of an identity, a slot at the end of the path. */
type Level = Map<string | number, Level>;

function child(level: Level, key: string | number): Level {
  let next = level.get(key);
  if (!next) {
    next = new Map() as Level;
    level.set(key, next);
  }
  return next;
}

/** Pools as a map key: most entries name one application, a number needs no string. */
const poolsKey = (pools: readonly number[]): string | number => (pools.length === 1 ? pools[0] as number : pools.join(','));

/**
 * Desired and live values by identity, in maps nested by client, list, type,
 * pools and value: a plan of 100k values builds no key string per value
 * (the values are strings already).
 */
export function ipSlots(desired: readonly DesiredIpEntry[], live: readonly LiveIpEntry[], owner: string): IpSlots {
  const root = new Map() as Level;
  const slots: IpSlot[] = [];
  const slot = (entry: IpEntry): IpSlot => {
    const place = child(child(child(child(root, entry.client), entry.list), entry.ruleType), poolsKey(entry.pools)) as unknown as Map<string, IpSlot>;
    let s = place.get(entry.value);
    if (!s) {
      s = {};
      place.set(entry.value, s);
      slots.push(s);
    }
    return s;
  };
  for (const entry of desired) {
    const s = slot(entry);
    // Declaring one value twice is a validation error upstream; keep the first.
    if (!s.desired || compareSources(entry.source, s.desired.source) < 0) s.desired = entry;
  }
  const objects = new Map<number, LiveIpEntry[]>();
  let owned = 0;
  for (const entry of live) {
    const s = slot(entry);
    if (entry.owner === owner) {
      owned++;
      if (s.owned) s.owned.push(entry);
      else s.owned = [entry];
      const held = objects.get(entry.id);
      if (held) held.push(entry);
      else objects.set(entry.id, [entry]);
    } else if (s.foreign) {
      s.foreign.push(entry);
    } else {
      s.foreign = [entry];
    }
  }
  return { slots, objects, owned };
}
