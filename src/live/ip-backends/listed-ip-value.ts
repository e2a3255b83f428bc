/**
 * The values of a listed IP-list object as the model's live entries. Nearly
 * every value of a listing shares all but its id, value and fingerprint with
 * the value listed before it (a list's objects come in runs of the same
 * client, type, applications, expiry, reason and owner): each value holds
 * those three and one shared `ListedIpAttributes`, and reads the rest through
 * getters on the class. As plain objects each value held its own copy of the
 * eleven members: 112 bytes a value, 56 now (issue 49: 2.8 MB at 50,000
 * values, for as long as a plan or a daemon holds the live state).
 *
 * The shared members are therefore not own properties: a spread would drop
 * them (`plainIpEntry` makes the plain form), JSON gets the plain form from
 * `toJSON`, and the tests compare entries by that form (test/setup/sources.ts).
 */
import type { IpListName, IpRuleType, LiveIpEntry } from '../../model/ip.js';

/** What the values of one listed object share, and often many objects of one listing. */
export interface ListedIpAttributes {
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  /** Shared through the read's interner: compared by identity. */
  readonly pools: readonly number[];
  readonly expiresAt: number;
  readonly objectSize: number;
  /** Shared through the read's interner, as `owner` is. */
  readonly reason: string | undefined;
  readonly owner: string | undefined;
}

export class ListedIpValue implements LiveIpEntry {
  readonly #attributes: ListedIpAttributes;

  constructor(readonly id: number, readonly value: string, readonly fingerprint: string | undefined, attributes: ListedIpAttributes) {
    this.#attributes = attributes;
  }

  get client(): number {
    return this.#attributes.client;
  }

  get list(): IpListName {
    return this.#attributes.list;
  }

  get ruleType(): IpRuleType {
    return this.#attributes.ruleType;
  }

  get pools(): readonly number[] {
    return this.#attributes.pools;
  }

  get expiresAt(): number {
    return this.#attributes.expiresAt;
  }

  get objectSize(): number {
    return this.#attributes.objectSize;
  }

  get reason(): string | undefined {
    return this.#attributes.reason;
  }

  get owner(): string | undefined {
    return this.#attributes.owner;
  }

  /** What JSON (the write journal's file), logs and the tests see: the plain entry, its members in the order the listing's literal had them. */
  toJSON(): LiveIpEntry {
    const { id, client, list, ruleType, value, pools, expiresAt, objectSize, reason, owner, fingerprint } = this;
    return { id, client, list, ruleType, value, pools, expiresAt, objectSize, reason, owner, fingerprint };
  }
}
