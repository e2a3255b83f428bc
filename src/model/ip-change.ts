/** An IP-list entry's changes: values written together by one create, objects removed by one delete per client. */
import type { DeleteReason } from './delete-reason.js';
import type { DesiredIpEntry, IpListName, IpRuleType, LiveIpEntry } from './ip.js';

export type IpChange = CreateIp | DeleteIp | AdoptIp;

/** What one `POST /v4/ip_rules` writes: values sharing a list, type, pools, expiry and reason. */
interface IpWrite {
  readonly kind: 'ip';
  readonly client: number;
  readonly list: IpListName;
  readonly ruleType: IpRuleType;
  readonly pools: readonly number[];
  readonly expiresAt: number;
  readonly reason?: string;
  /** Sorted by value. */
  readonly entries: readonly DesiredIpEntry[];
}

/**
 * Adoption of unmanaged IP values: one forced create in their own list with
 * the owner mark (the service moves the values out of the objects holding
 * them). Values of one `ipGroupKey` go together, like creates.
 */
export interface AdoptIp extends IpWrite {
  readonly action: 'adopt';
  /** The unmanaged objects holding the values (sorted). */
  readonly from: readonly number[];
  /** Attributes the declaration changes (`expires`, `reason`); empty when only the mark is added. */
  readonly fields: readonly string[];
  /** When `fields` is not empty: what the objects in `from` held (same order), for the plan's old → new. */
  readonly before?: readonly IpAttributesBefore[];
}

/**
 * One `POST /v4/ip_rules`: one value for `ip_range`, one or more values sharing
 * `ipGroupKey` for the other types.
 */
export interface CreateIp extends IpWrite {
  readonly action: 'create';
  /**
   * `true` moves each value out of the objects that hold it (same client, list,
   * type and pools) before creating: used only where we own every holder, to
   * change an entry's expiry/reason or to rescue values from an object about to
   * be deleted. `false` for new values.
   */
  readonly force: boolean;
  /** Ids of owned live objects the forced values move out of (sorted). */
  readonly replaces?: readonly number[];
  /** The attributes those objects held, in the order of `replaces` (a reviewer's old → new). */
  readonly before?: readonly IpAttributesBefore[];
}

export interface IpAttributesBefore {
  readonly id: number;
  readonly expiresAt: number;
  readonly reason?: string;
}

/** One owned IP object a batched delete removes. */
export interface DeletedIpObject {
  readonly id: number;
  /** `not-declared` if any of its values is undeclared, `moved` for an adopted object whose values move lists, else `duplicate`. */
  readonly reason: Exclude<DeleteReason, 'replaced'>;
  /** The values the object still holds when the delete runs (sorted by value). */
  readonly entries: readonly LiveIpEntry[];
  /** Values an earlier forced create of this plan moved out of it (sorted). */
  readonly moved: readonly LiveIpEntry[];
  /** Values the object holds before the plan runs (the listing's objectSize). */
  readonly size: number;
}

/** Every owned IP object of a client to remove: one delete call per list (`deletedIdsByList`), the service's delete naming its list. */
export interface DeleteIp {
  readonly action: 'delete';
  readonly kind: 'ip';
  readonly client: number;
  /** Sorted by id, ids unique. */
  readonly objects: readonly DeletedIpObject[];
}

/**
 * A batch's object ids by the list that holds them, lists in order: a v4
 * delete names its list, as the service's client sent it, so a batch across
 * lists is one call per list.
 */
export function deletedIdsByList(change: DeleteIp): ReadonlyMap<IpListName, readonly number[]> {
  const byList = new Map<IpListName, number[]>();
  for (const object of change.objects) {
    const list = (object.entries[0] ?? object.moved[0])?.list;
    if (list === undefined) continue;
    const ids = byList.get(list);
    if (ids) ids.push(object.id);
    else byList.set(list, [object.id]);
  }
  return new Map([...byList].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
