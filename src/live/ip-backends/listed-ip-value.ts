/**
 * The values of a listed IP-list object as the model's live entries. Nearly
 * every value of a listing shares all but its id, value and fingerprint with
 * the value listed before it (a list's objects come in runs of the same
 * client, type, applications, expiry, reason and owner): each value holds
 * those three and one shared `ListedIpAttributes` (model/shared-ip-value.ts).
 */
import type { LiveIpEntry } from '../../model/ip.js';
import { SharedIpValue, type SharedIpAttributes } from '../../model/shared-ip-value.js';

/** What the values of one listed object share, and often many objects of one listing. */
export interface ListedIpAttributes extends SharedIpAttributes {
  readonly objectSize: number;
  /** Shared through the read's interner, as `reason` is. */
  readonly owner: string | undefined;
}

export class ListedIpValue extends SharedIpValue<ListedIpAttributes> implements LiveIpEntry {
  constructor(readonly id: number, value: string, readonly fingerprint: string | undefined, attributes: ListedIpAttributes) {
    super(value, attributes);
  }

  get objectSize(): number {
    return this.shared.objectSize;
  }

  get owner(): string | undefined {
    return this.shared.owner;
  }

  /** What JSON (the write journal's file), logs and the tests see: the plain entry, its members in the order the listing's literal had them. */
  toJSON(): LiveIpEntry {
    const { id, client, list, ruleType, value, pools, expiresAt, objectSize, reason, owner, fingerprint } = this;
    return { id, client, list, ruleType, value, pools, expiresAt, objectSize, reason, owner, fingerprint };
  }
}
