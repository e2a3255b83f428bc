import { type DesiredIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { getOrMake } from '../model/maps.js';
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
  /** Live values held by objects carrying our owner mark. */
  readonly owned: number;
}

/** Maps nested by the fields of an identity, a value at the end of the path. */
type Level = Map<string | number, Level>;

const newLevel = (): Level => new Map();
const child = (level: Level, key: string | number): Level => getOrMake(level, key, newLevel);

/** Pools as a map key: most entries name one application, a number needs no string. */
const poolsKey = (pools: readonly number[]): string | number => (pools.length === 1 ? pools[0] as number : pools.join(','));

/**
 * Something per IP identity (`ipKey`: client, list, type, pools, value), in
 * maps nested by those fields: 100k values need no key string each (the
 * values are strings already).
 */
export class IpIndex<T> {
  private readonly root = new Map() as Level;

  /** The value stored for the entry's identity, made by `make` the first time. */
  at(entry: IpEntry, make: () => T): T {
    return getOrMake(this.place(entry, true) as Map<string, T>, entry.value, make);
  }

  set(entry: IpEntry, value: T): void {
    (this.place(entry, true) as Map<string, T>).set(entry.value, value);
  }

  get(entry: IpEntry): T | undefined {
    return (this.place(entry, false) as Map<string, T> | undefined)?.get(entry.value);
  }

  private place(entry: IpEntry, create: boolean): Level | undefined {
    const pools = poolsKey(entry.pools);
    if (create) return child(child(child(child(this.root, entry.client), entry.list), entry.ruleType), pools);
    return this.root.get(entry.client)?.get(entry.list)?.get(entry.ruleType)?.get(pools);
  }
}

/**
 * Desired and live values by identity (IpIndex). Indexed loops: run once per
 * plan over every value, a `for…of` loop allocated an iterator result per
 * value before V8 optimized it (9 MB at 50k values).
 */
export function ipSlots(desired: readonly DesiredIpEntry[], live: readonly LiveIpEntry[], owner: string): IpSlots {
  const index = new IpIndex<IpSlot>();
  const slots: IpSlot[] = [];
  const newSlot = (): IpSlot => {
    // Every member present from the start: one shape for all slots, whichever side comes first.
    const s: IpSlot = { desired: undefined, owned: undefined, foreign: undefined, chosen: undefined };
    slots.push(s);
    return s;
  };
  for (let i = 0; i < desired.length; i++) {
    const entry = desired[i] as DesiredIpEntry;
    const s = index.at(entry, newSlot);
    // Declaring one value twice is a validation error upstream; keep the first.
    if (!s.desired || compareSources(entry.source, s.desired.source) < 0) s.desired = entry;
  }
  let owned = 0;
  for (let i = 0; i < live.length; i++) {
    const entry = live[i] as LiveIpEntry;
    const s = index.at(entry, newSlot);
    if (entry.owner === owner) {
      owned++;
      if (s.owned) s.owned.push(entry);
      else s.owned = [entry];
    } else if (s.foreign) {
      s.foreign.push(entry);
    } else {
      s.foreign = [entry];
    }
  }
  return { slots, owned };
}
