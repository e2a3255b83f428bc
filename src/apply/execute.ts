/**
 * Runs one plan change as API calls: the create or delete itself, plus the
 * check that follows a write whose outcome is unknown (a reset or timeout after
 * the request was sent), so a create that went through is not repeated.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceApi } from '../api/service.js';
import { ApiConflictError } from '../errors.js';
import { mayHaveBeenApplied } from '../api/retry.js';
import { liveRuleFromHint } from '../live/normalize-hint.js';
import { fetchAllPages } from '../live/paging.js';
import { HINT_PAGE_LIMIT } from '../api/service.js';
import { ruleKey, type Rule } from '../model/rule.js';
import { ipEntriesFromPlan, ruleFromPlan } from '../plan/objects.js';
import type { PlanCreateIp, PlanCreateRule, PlanDeleteIp, PlanDeleteRule } from '../plan/types.js';
import { hintCreateRequest, ipRuleCreateRequest } from './requests.js';
import type { WriteJournal } from './write-journal.js';
import { UNKNOWN_ID } from './write-journal.js';

export interface ExecuteContext {
  readonly api: ServiceApi;
  readonly owner: string;
  readonly stopRetrying?: AbortSignal;
  readonly journal?: WriteJournal;
  /** How long to look for a create whose outcome is unknown before making it again. */
  readonly verifyTimeoutMs: number;
  readonly verifyIntervalMs: number;
}

export interface Outcome {
  readonly status: 'applied' | 'already-done';
  readonly id?: number;
  readonly detail?: string;
}

export async function createRule(change: PlanCreateRule, context: ExecuteContext): Promise<Outcome> {
  const rule = ruleFromPlan(change.client, change.rule);
  const request = hintCreateRequest(rule, context.owner);
  context.journal?.recordCreateIntent({ kind: 'rule-create-intent', at: Date.now(), rule: { ...rule, id: UNKNOWN_ID, owner: context.owner } });
  let id: number;
  try {
    id = (await context.api.createHint(request, { stopRetrying: context.stopRetrying })).id;
  } catch (error) {
    if (!mayHaveBeenApplied(error)) throw error;
    const found = await findOwnedRule(rule, context);
    if (found !== undefined) {
      context.journal?.recordRuleCreated({ ...rule, id: found, owner: context.owner });
      return { status: 'applied', id: found, detail: 'outcome was unknown; found in the listing' };
    }
    id = (await context.api.createHint(request, { stopRetrying: context.stopRetrying })).id;
  }
  context.journal?.recordRuleCreated({ ...rule, id, owner: context.owner });
  return { status: 'applied', id };
}

export async function createIp(change: PlanCreateIp, context: ExecuteContext): Promise<Outcome> {
  const entries = ipEntriesFromPlan(change.client, change.object);
  const request = ipRuleCreateRequest(entries, context.owner, change.force);
  const live = entries.map((entry) => ({ ...entry, id: UNKNOWN_ID, objectSize: entries.length, owner: context.owner }));
  const record = () => context.journal?.recordIpCreated(live);
  context.journal?.recordCreateIntent({ kind: 'ip-create-intent', at: Date.now(), entries: live });
  try {
    await context.api.createIpRule(request, { stopRetrying: context.stopRetrying });
  } catch (error) {
    if (error instanceof ApiConflictError) {
      // The values are in the list already: our earlier write, or one the listing did not show yet.
      record();
      return { status: 'already-done', detail: 'already in the list (409)' };
    }
    if (!mayHaveBeenApplied(error)) throw error;
    // Repeating is safe: a forced create overwrites, an unforced one answers 409 if it went through.
    try {
      await context.api.createIpRule(request, { stopRetrying: context.stopRetrying });
    } catch (retryError) {
      if (!(retryError instanceof ApiConflictError)) throw retryError;
    }
  }
  record();
  return { status: 'applied' };
}

export async function deleteRule(change: PlanDeleteRule, context: ExecuteContext): Promise<Outcome> {
  // A journaled create whose id we never heard: nothing to delete until the listing shows it.
  if (change.id < 0) return { status: 'already-done', detail: 'not listed yet' };
  const deleted = await context.api.deleteHint(change.client, change.id, { stopRetrying: context.stopRetrying });
  context.journal?.recordRuleDeleted(change.id);
  return deleted.length > 0 ? { status: 'applied' } : { status: 'already-done', detail: 'already gone' };
}

export async function deleteIp(change: PlanDeleteIp, ids: readonly number[], context: ExecuteContext): Promise<Outcome> {
  await context.api.deleteIpRules(change.client, ids, { stopRetrying: context.stopRetrying });
  context.journal?.recordIpDeleted(ids);
  return { status: 'applied' };
}

/** Polls the client's rules for an owned rule equal to `rule`; its id, or undefined. */
async function findOwnedRule(rule: Rule, context: ExecuteContext): Promise<number | undefined> {
  const key = ruleKey(rule);
  const deadline = Date.now() + context.verifyTimeoutMs;
  for (;;) {
    const hints = await fetchAllPages((offset, limit) => context.api.listHints(rule.client, offset, limit), HINT_PAGE_LIMIT);
    const match = hints
      .map((hint) => liveRuleFromHint(hint))
      .find((live) => live !== undefined && live.owner === context.owner && ruleKey(live) === key);
    if (match) return match.id;
    if (Date.now() >= deadline) return undefined;
    await sleep(context.verifyIntervalMs);
  }
}
