/** Rules as the applier writes them: one call per create and update, deletes of a client batched. */
import { runBounded } from '../../concurrency.js';
import { InternalError } from '../../errors.js';
import { appendTo } from '../../plan/append.js';
import type { CreateRule, RuleChange } from '../../model/change.js';
import { referencesOfRule } from '../../model/rule.js';
import { RULE_DELETE_BATCH } from '../../plan/classes/rules.js';
import { ruleApplication } from '../../plan/objects.js';
import type { NamedReference } from '../../rules/registry.js';
import type { ChangeResult } from '../../audit/change-result.js';
import { createRule, deleteRules, updateRule } from '../execute.js';
import { failure, partition, type Indexed } from '../run-change.js';
import type { ApplyClass } from './class.js';
import { ruleCopyFinder } from './rule-copies.js';
import { ruleListingCheck } from './rule-listing-check.js';

/** The rule a create names by reference (`regex_rule`), which the same apply may create first. */
function referenceOf(change: RuleChange): NamedReference | undefined {
  return change.action === 'create' ? referencesOfRule(change.rule)[0] : undefined;
}

/** The create of the rule `change` names: same client, file and application. */
function isCreateOf(change: CreateRule, reference: NamedReference, result: ChangeResult): boolean {
  const c = result.change;
  if (result.status !== 'applied' || c.kind !== change.kind || c.action !== 'create') return false;
  const [named, referring] = [c.rule, change.rule];
  return named.kind === reference.kind && named.client === referring.client && named.source.file === referring.source.file
    && named.source.name === reference.name && JSON.stringify(ruleApplication(named)) === JSON.stringify(ruleApplication(referring));
}

export const RULE_WRITES: ApplyClass<RuleChange> = {
  write(change, context, referencedId) {
    if (change.action === 'create') return createRule(change, context, referencedId);
    if (change.action === 'delete') throw new InternalError('rule deletes run in batches (runDeletes)');
    return updateRule(change, context);
  },

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
        for (const { change, index } of list) run.record({ index, change, ...failure(error, change) });
      }
    }), run.concurrency);
  },

  waitsFor(change) {
    const reference = referenceOf(change);
    return reference && `its ${reference.kind} rule "${reference.name}"`;
  },
  referencedId(change, results) {
    const reference = referenceOf(change);
    if (change.action !== 'create' || !reference) return undefined;
    // The id a create answers for references to it: a regex rule's `regex_id`.
    return results.find((result) => isCreateOf(change, reference, result))?.regexId;
  },
  listingCheck: ruleListingCheck,
  copyFinder: ruleCopyFinder,
};

function deletedId(change: RuleChange): number {
  if (change.action !== 'delete') throw new InternalError(`a rule ${change.action} among the deletes`);
  return change.rule.id;
}
