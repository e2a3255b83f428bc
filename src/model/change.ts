import type { DesiredIpEntry, IpListName, IpRuleType, LiveIpEntry } from './ip.js';
import type { DesiredRule, LiveRule } from './rule.js';

/**
 * One API call's worth of change, as the diff produces it (model objects in,
 * model objects out). `src/plan/plan.ts` sorts these once and turns them into
 * the plan's JSON changes. `summary` counts objects (values), not calls.
 */
export type Change = RuleChange | IpChange;
export type RuleChange = CreateRule | UpdateRule | DeleteRule | AdoptRule;
export type IpChange = CreateIp | DeleteIp | AdoptIp;

/**
 * Why an owned live object goes:
 * - `not-declared`: no policy declares it any more (the safety guard counts these);
 * - `duplicate`: another live object already provides it;
 * - `replaced`: a create earlier in the plan replaces it (a rule's comment changed);
 * - `moved`: an unmanaged IP object adopted with `--adopt` whose value the
 *   policies declare in another list: it goes once the value is in that list.
 */
export type DeleteReason = 'not-declared' | 'duplicate' | 'replaced' | 'moved';

export interface CreateRule {
  readonly action: 'create';
  readonly kind: 'rule';
  readonly rule: DesiredRule;
  /** Ids of owned live rules this create replaces; their deletes come after it. */
  readonly replaces?: readonly number[];
  /**
   * The replaced rule goes first: a kind the service keeps one per scope
   * drops a second rule on the scope, so create-then-delete would leave none.
   * Only with `--rule-updates replace`; updates in place need no such order.
   */
  readonly deleteFirst?: boolean;
}

/** One `PUT /v3/hint/{id}`: the owned rule takes the declaration's updatable fields and comment. */
export interface UpdateRule {
  readonly action: 'update';
  readonly kind: 'rule';
  readonly rule: DesiredRule;
  readonly live: LiveRule;
  /** YAML names of the fields that change, `comment` included when it does. */
  readonly fields: readonly string[];
}

/**
 * Adoption (`--adopt`): an unmanaged rule equal to a declaration becomes ours
 * by one `PUT /v3/hint/{id}` writing the owner mark into its comment, with the
 * fields the declaration changes (a one-per-scope rule held with other values).
 */
export interface AdoptRule {
  readonly action: 'adopt';
  readonly kind: 'rule';
  readonly rule: DesiredRule;
  readonly live: LiveRule;
  /** YAML names of the fields that change besides the mark, `comment` included when it does. */
  readonly fields: readonly string[];
}

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

export interface DeleteRule {
  readonly action: 'delete';
  readonly kind: 'rule';
  readonly rule: LiveRule;
  readonly reason: DeleteReason;
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

/** One `DELETE /v4/ip_rules` per client, holding every object id to remove. */
export interface DeleteIp {
  readonly action: 'delete';
  readonly kind: 'ip';
  readonly client: number;
  /** Sorted by id, ids unique. */
  readonly objects: readonly DeletedIpObject[];
}
