/** A rule's changes: one call each (`POST`/`PUT /v3/hint`), deletes batched by the applier. */
import type { DeleteReason } from './delete-reason.js';
import type { DesiredRule, LiveRule } from './rule.js';

export type RuleChange = CreateRule | UpdateRule | DeleteRule | AdoptRule;

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

export interface DeleteRule {
  readonly action: 'delete';
  readonly kind: 'rule';
  readonly rule: LiveRule;
  readonly reason: DeleteReason;
}
