import { ipPlaceKey, type DesiredIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { compareSources } from './notes.js';

/**
 * One IP identity (`ipKey`: client, list, type, pools, value): its declaration
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

/**
 * Desired and live values by identity. Keyed by place (`ipPlaceKey`), then
 * by the value's own string: a plan of 100k values builds one key string per
 * place, not one per value.
 */
export function ipSlots(desired: readonly DesiredIpEntry[], live: readonly LiveIpEntry[], owner: string): IpSlots {
  const places = new Map<string, Map<string, IpSlot>>();
  const slots: IpSlot[] = [];
  const slot = (entry: IpEntry): IpSlot => {
    const placeKey = ipPlaceKey(entry);
    let place = places.get(placeKey);
    if (!place) {
      place = new Map();
      places.set(placeKey, place);
    }
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
