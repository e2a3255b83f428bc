/** Rules as the applier writes them: one call per create and update, deletes of a client batched. */
import { runBounded } from '../../concurrency.js';
import { ApiAuthError, InternalError } from '../../errors.js';
import { appendTo } from '../../plan/append.js';
import type { RuleChange, CreateRule } from '../../model/rule-change.js';
import { onAction } from '../../model/by-action.js';
import { kindOf, referencesOfRule, type Rule } from '../../model/rule.js';
import { RULE_DELETE_BATCH } from '../../plan/classes/rules.js';
import { ruleApplication } from '../../plan/classes/rule-document.js';
import type { NamedReference } from '../../rules/registry.js';
import type { ChangeResult } from '../../audit/change-result.js';
import type { Outcome } from '../execute.js';
import { createRule, deleteRules, updateRule } from './rule-calls.js';
import { failure, partition, type Indexed } from '../run-change.js';
import type { BuiltInApplyClass } from './class.js';
import { ruleCopyFinder } from './rule-copies.js';
import { ruleListingCheck } from './rule-listing-check.js';

/** The rule a create names by reference (`regex_rule`), which the same apply may create first. */
function referenceOf(change: RuleChange): NamedReference | undefined {
  return onAction(change, { create: (c) => referencesOfRule(c.rule)[0], update: () => undefined, adopt: () => undefined, delete: () => undefined });
}

/** The create of the rule `change` names: same client, file and application. */
function isCreateOf(change: CreateRule, reference: NamedReference, result: ChangeResult): boolean {
  if (result.status !== 'applied' || result.change.kind !== change.kind) return false;
  const created = onAction<RuleChange, CreateRule['rule'] | undefined>(result.change as RuleChange, { create: (c) => c.rule, update: () => undefined, adopt: () => undefined, delete: () => undefined });
  if (!created) return false;
  const [named, referring] = [created, change.rule];
  return named.kind === reference.kind && named.client === referring.client && named.source.file === referring.source.file
    && named.source.name === reference.name && JSON.stringify(ruleApplication(named)) === JSON.stringify(ruleApplication(referring));
}

/**
 * A 403 on writing a kind that needs a right the token lacks (its kind says
 * which): the error says which right, and that running apply again will not
 * help. Deletes need no such right.
 */
async function sayingTheRight(rule: Rule, write: Promise<Outcome>): Promise<Outcome> {
  try {
    return await write;
  } catch (error) {
    const kind = kindOf(rule);
    if (!(error instanceof ApiAuthError) || error.tokenRejected || kind.needsRight === undefined) throw error;
    const message = `the API token may not write ${kind.yaml} rules: they need ${kind.needsRight}. Use a token with that right; running apply again will not help (${error.message})`;
    throw new ApiAuthError(message, { ...error, cause: error });
  }
}

export const RULE_WRITES: BuiltInApplyClass<RuleChange> = {
  write: (change, context, referencedId) => sayingTheRight(change.rule, onAction(change, {
    create: (c) => createRule(c, context, referencedId),
    update: (c) => updateRule(c, context, { adopting: false }),
    // An adoption is an update that writes the owner mark.
    adopt: (c) => updateRule(c, context, { adopting: true }),
    delete: () => {
      throw new InternalError('rule deletes run in batches (runDeletes)');
    },
  })),

  async runDeletes(items, run, blocked) {
    const [kept, deletable] = partition(items, ({ change }) => blocked.has(deletedId(change)));
    for (const { change, index } of kept) run.record({ index, change, status: 'skipped', detail: `its replacement was not created; rule ${deletedId(change)} stays` });
    // A journaled create whose id we never heard: nothing to delete until the listing shows it.
    const [placeholders, real] = partition(deletable, ({ change }) => deletedId(change) < 0);
    for (const { change, index } of placeholders) run.record({ index, change, status: 'already-done', detail: 'not listed yet' });
    const byClient = new Map<number, Indexed<RuleChange>[]>();
    for (const item of real) appendTo(byClient, item.change.rule.client, item);
    const batches = [...byClient.entries()].flatMap(([client, list]) =>
      Array.from({ length: Math.ceil(list.length / RULE_DELETE_BATCH) }, (_, i) => ({ client, list: list.slice(i * RULE_DELETE_BATCH, (i + 1) * RULE_DELETE_BATCH) })));
    await runBounded(batches.map(({ client, list }) => async () => {
      if (run.stop?.aborted) {
        for (const { change, index } of list) run.record({ index, change, status: 'skipped', detail: 'stopped before this change' });
        return;
      }
      try {
        const deleted = await deleteRules(client, list.map(({ change }) => deletedId(change)), run.context);
        for (const { change, index } of list) {
          run.record(deleted.has(deletedId(change)) ? { index, change, status: 'applied' } : { index, change, status: 'already-done', detail: 'already gone' });
        }
      } catch (error) {
        for (const { change, index } of list) run.record({ index, change, ...failure(error) });
      }
    }), run.concurrency);
  },

  waitsFor(change) {
    const reference = referenceOf(change);
    return reference && `its ${reference.kind} rule "${reference.name}"`;
  },
  referencedId: (change, results) => onAction(change, {
    create(c) {
      const reference = referenceOf(c);
      // The id a create answers for references to it: a regex rule's `regex_id`.
      return reference ? results.find((result) => isCreateOf(c, reference, result))?.regexId : undefined;
    },
    update: () => undefined,
    adopt: () => undefined,
    delete: () => undefined,
  }),
  listingCheck: ruleListingCheck,
  copyFinder: ruleCopyFinder,
};

function deletedId(change: RuleChange): number {
  const notADelete = (c: RuleChange): never => {
    throw new InternalError(`a rule ${c.action} among the deletes`);
  };
  return onAction(change, { create: notADelete, update: notADelete, adopt: notADelete, delete: (c) => c.rule.id });
}
