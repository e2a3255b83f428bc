/**
 * An IP-list value that holds only what is its own and reads the rest from
 * one attributes object it shares with its neighbours: the values of one
 * policy entry (policy/classes/declared-ip-value.ts), or a run of listed
 * objects (live/ip-backends/listed-ip-value.ts). As plain objects each value
 * held its own copy of every shared member (issue 49: 176 and 112 bytes a
 * value, against 64 and 56).
 *
 * The shared members are therefore not own properties: a spread would drop
 * them (`plainIpEntry` makes the plain form), JSON gets the plain form from
 * each subclass's `toJSON`, and the tests compare entries by that form
 * (test/setup/sources.ts).
 */
import type { IpEntry, IpListName, IpRuleType } from './ip.js';

/** What the values that share one attributes object have in common: all of an entry but its value. */
export interface SharedIpAttributes {
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  /** Shared through an interner where a listing makes them: compared by identity. */
  readonly pools: readonly number[];
  readonly expiresAt: number;
  readonly reason: string | undefined;
}

export abstract class SharedIpValue<A extends SharedIpAttributes> implements IpEntry {
  readonly #shared: A;

  constructor(readonly value: string, shared: A) {
    this.#shared = shared;
  }

  /** The attributes object, for what a subclass shares beyond an entry's. */
  protected get shared(): A {
    return this.#shared;
  }

  get client(): number {
    return this.#shared.client;
  }

  get list(): IpListName {
    return this.#shared.list;
  }

  get ruleType(): IpRuleType {
    return this.#shared.ruleType;
  }

  get pools(): readonly number[] {
    return this.#shared.pools;
  }

  get expiresAt(): number {
    return this.#shared.expiresAt;
  }

  get reason(): string | undefined {
    return this.#shared.reason;
  }
}
