/**
 * A rule's changes as calls to the service's hint API: a create (checked
 * against the listing before it is made again when its outcome is unknown), an
 * update in place, a batched delete.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiHint } from '../../api/records.js';
import { mayHaveBeenApplied } from '../../api/retry.js';
import { liveRuleFromHint } from '../../live/normalize-hint.js';
import { listClientRules } from '../../live/rule-listing.js';
import { UNKNOWN_ID } from '../../live/write-journal.js';
import { listedRuleWriteKey, ruleWriteKey, ruleFingerprint } from '../../model/rule-fingerprint.js';
import { ruleRewrites } from '../../model/rule-rewrites.js';
import { plainRule, referencesOfRule, withReferenceResolved, type LiveRule, type Rule } from '../../model/rule.js';
import type { AdoptRule, CreateRule, UpdateRule } from '../../model/rule-change.js';
import { MAX_CREATE_ATTEMPTS, type ExecuteContext, type Outcome } from '../execute.js';
import type { ListingRead } from '../listing-reads.js';
import { hintCreateRequest, hintUpdateRequest } from './rule-requests.js';

/** `referencedId`: for a rule naming another of its file (`regex_rule`), the id that rule's create answered. */
export async function createRule(change: CreateRule, context: ExecuteContext, referencedId?: number): Promise<Outcome> {
  const declared = plainRule(change.rule);
  const [reference] = referencesOfRule(declared);
  const rule = referencedId === undefined || !reference ? declared : withReferenceResolved(declared, reference, referencedId);
  const request = hintCreateRequest(rule, context.owner, change.rule.source.name);
  const written: LiveRule = { ...rule, id: UNKNOWN_ID, owner: context.owner, fingerprint: ruleFingerprint(rule) };
  context.journal?.recordCreateIntent('rule', [written]);
  let stored: ApiHint | undefined;
  // An answer that may follow a committed write (a reset, a timeout, any 5xx) is
  // checked against the listing before the create is made again, every time.
  for (let attempt = 1; stored === undefined; attempt++) {
    try {
      stored = await context.api.createHint(request, { stopRetrying: context.stopRetrying });
    } catch (error) {
      if (!mayHaveBeenApplied(error)) {
        if (attempt === 1) context.journal?.recordCreateAbandoned([ruleWriteKey(written)]);
        throw error;
      }
      const found = await findOwnedRule(written, context);
      if (found !== undefined) {
        context.journal?.recordCreated('rule', [{ ...written, id: found.id, ...(found.regexId !== undefined ? { regexId: found.regexId } : {}) }]);
        return {
          status: 'applied', id: found.id, detail: 'outcome was unknown; found in the listing',
          ...(found.regexId !== undefined ? { regexId: found.regexId } : {}), ...rewritesOf(rule, found),
        };
      }
      if (attempt >= MAX_CREATE_ATTEMPTS || context.stopRetrying?.aborted) throw error;
    }
  }
  // The regex_id too: a rerun resolves `regex_rule` references against what the journal remembers.
  context.journal?.recordCreated('rule', [{ ...written, id: stored.id, ...(typeof stored.regex_id === 'number' ? { regexId: stored.regex_id } : {}) }]);
  const read = liveRuleFromHint(stored);
  return {
    status: 'applied', id: stored.id,
    ...(typeof stored.regex_id === 'number' ? { regexId: stored.regex_id } : {}), ...(read ? rewritesOf(rule, read) : {}),
  };
}

/** The create's answer is the stored record: what differs from the declaration, if anything. */
function rewritesOf(declared: Rule, stored: Rule): Pick<Outcome, 'rewrites'> {
  const rewrites = ruleRewrites(declared, stored);
  return rewrites.length > 0 ? { rewrites } : {};
}

/** Deletes rules of one client in one call; the ids the service says it deleted (the others were gone already). */
export async function deleteRules(client: number, ids: readonly number[], context: ExecuteContext): Promise<ReadonlySet<number>> {
  const deleted = await context.api.deleteHints(client, ids, { stopRetrying: context.stopRetrying });
  context.journal?.recordDeleted('rule', ids);
  return deleted;
}

/**
 * An update in place: the kind's whole mutable surface, changed or not (the
 * service resets what a body leaves out), and a comment whose mark carries
 * the new declaration's fingerprint. A PUT is idempotent, so the client's
 * retry policy repeats it freely. Adopting a rule is the same call on a rule
 * that carried no mark yet.
 */
export async function updateRule(change: UpdateRule | AdoptRule, context: ExecuteContext, how: { readonly adopting: boolean }): Promise<Outcome> {
  const rule = plainRule(change.rule);
  const { id } = change.live;
  // An adopted rule stays marked so: the service may have made it, and may refuse to let it go.
  const request = hintUpdateRequest(rule, change.live, context.owner, change.rule.source.name, how.adopting || change.live.adopted === true);
  const stored = await context.api.updateHint(id, request, { stopRetrying: context.stopRetrying });
  context.journal?.recordCreated('rule', [{ ...rule, id, owner: context.owner, fingerprint: ruleFingerprint(rule) }]);
  const read = liveRuleFromHint(stored);
  return { status: 'applied', id, ...(read ? rewritesOf(rule, read) : {}) };
}

/** Polls the client's rules for the one this create wrote (by the fingerprint in its mark), or undefined. */
async function findOwnedRule(written: LiveRule, context: ExecuteContext): Promise<LiveRule | undefined> {
  const key = ruleWriteKey(written);
  const deadline = Date.now() + context.verifyTimeoutMs;
  for (;;) {
    const rules = await listClientRules(context.api, written.client, (hint) => liveRuleFromHint(hint));
    const match = rules.find((live) => live.owner === context.owner && listedRuleWriteKey(live) === key);
    if (match) return match;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    // The last look is at the deadline, not an interval past it.
    await sleep(Math.min(context.verifyIntervalMs, left));
  }
}

/** A client's rules, as apply reads them after its writes (listing-reads.ts). */
export function ruleListing(client: number): ListingRead<ApiHint> {
  return { key: `rules|${client}`, read: (api, signal) => listClientRules(api, client, (hint) => hint, signal ? { signal } : {}) };
}
