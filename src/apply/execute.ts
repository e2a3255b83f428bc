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
import { listClientRules } from '../live/rule-listing.js';
import type { ApiHint } from '../api/records.js';
import { checkIpRules } from '../api/check-records.js';
import { liveEntriesFromIpRule } from '../live/normalize-ip-rule.js';
import { ipFingerprint, ipWriteKey, listedRuleWriteKey, ruleFingerprint, ruleWriteKey } from '../model/fingerprint.js';
import { plainIpEntry, type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { ipRewrites, ruleRewrites, type FieldRewrite } from '../model/rewrites.js';
import { plainRule, referencesOfRule, withReferenceResolved, type LiveRule, type Rule } from '../model/rule.js';
import type { AdoptIp } from '../model/ip-change.js';
import type { AdoptRule } from '../model/rule-change.js';
import type { UpdateRule } from '../model/rule-change.js';
import type { CreateRule } from '../model/rule-change.js';
import { hintCreateRequest, hintUpdateRequest, ipRuleCreateRequest } from './requests.js';
import type { WriteJournal } from '../live/write-journal.js';
import { UNKNOWN_ID } from '../live/write-journal.js';

export interface ExecuteContext {
  readonly api: ServiceApi;
  readonly owner: string;
  readonly stopRetrying?: AbortSignal;
  readonly journal?: WriteJournal;
  /** How long to look for a create whose outcome is unknown before making it again. */
  readonly verifyTimeoutMs: number;
  readonly verifyIntervalMs: number;
}

/** Creates sent for one change whose answers all left the outcome unknown. */
const MAX_CREATE_ATTEMPTS = 4;

export interface Outcome {
  readonly status: 'applied' | 'already-done';
  readonly id?: number;
  readonly detail?: string;
  /** Fields the service stored differently from what was sent, read from its answer. */
  readonly rewrites?: readonly FieldRewrite[];
  /** Ids of the IP objects a create made, where the answer lists them. */
  readonly ids?: readonly number[];
  /** A created regex rule's `regex_id`, for the `ignore_regex` rules that name it. */
  readonly regexId?: number;
}

/** `referencedId`: for a rule naming another of its file (`regex_rule`), the id that rule's create answered. */
export async function createRule(change: CreateRule, context: ExecuteContext, referencedId?: number): Promise<Outcome> {
  const declared = plainRule(change.rule);
  const [reference] = referencesOfRule(declared);
  const rule = referencedId === undefined || !reference ? declared : withReferenceResolved(declared, reference, referencedId);
  const request = hintCreateRequest(rule, context.owner, change.rule.source.name);
  const written: LiveRule = { ...rule, id: UNKNOWN_ID, owner: context.owner, fingerprint: ruleFingerprint(rule) };
  context.journal?.recordCreateIntent({ kind: 'rule-create-intent', at: Date.now(), rule: written });
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
        context.journal?.recordRuleCreated({ ...written, id: found.id, ...(found.regexId !== undefined ? { regexId: found.regexId } : {}) });
        return {
          status: 'applied', id: found.id, detail: 'outcome was unknown; found in the listing',
          ...(found.regexId !== undefined ? { regexId: found.regexId } : {}), ...rewritesOf(rule, found),
        };
      }
      if (attempt >= MAX_CREATE_ATTEMPTS || context.stopRetrying?.aborted) throw error;
    }
  }
  // The regex_id too: a rerun resolves `regex_rule` references against what the journal remembers.
  context.journal?.recordRuleCreated({ ...written, id: stored.id, ...(typeof stored.regex_id === 'number' ? { regexId: stored.regex_id } : {}) });
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

/** One object holding `declared` (values sharing a list, type, pools, expiry and reason); `force` moves them out of the objects holding them. */
export async function createIp(declared: readonly IpEntry[], force: boolean, context: ExecuteContext): Promise<Outcome> {
  const entries = declared.map(plainIpEntry);
  const request = ipRuleCreateRequest(entries, context.owner, force);
  const live = entries.map((entry) => ({
    ...entry, id: UNKNOWN_ID, objectSize: entries.length, owner: context.owner, fingerprint: ipFingerprint(entry),
  }));
  const record = () => context.journal?.recordIpCreated(live);
  context.journal?.recordCreateIntent({ kind: 'ip-create-intent', at: Date.now(), entries: live });
  let answer: unknown;
  // Repeating after an unknown outcome is safe: a forced create overwrites, an
  // unforced one answers 409 if an earlier attempt went through.
  for (let attempt = 1; ; attempt++) {
    try {
      answer = await context.api.createIpRule(request, { stopRetrying: context.stopRetrying });
      break;
    } catch (error) {
      if (error instanceof ApiConflictError) {
        record();
        // On the first attempt: the values were in the list already (our earlier write, or one not listed yet).
        return attempt === 1 ? { status: 'already-done', detail: 'already in the list (409)' } : { status: 'applied', detail: 'outcome was unknown; the repeat found it done (409)' };
      }
      if (!mayHaveBeenApplied(error)) {
        if (attempt === 1) context.journal?.recordCreateAbandoned(live.map(ipWriteKey));
        throw error;
      }
      if (attempt >= MAX_CREATE_ATTEMPTS || context.stopRetrying?.aborted) throw error;
    }
  }
  record();
  const stored = storedIpObjects(answer);
  if (!stored) return { status: 'applied' };
  const rewrites = ipAnswerRewrites(entries, stored);
  return { status: 'applied', ids: [...new Set(stored.map((e) => e.id))], ...(rewrites.length > 0 ? { rewrites } : {}) };
}

/** The stored objects, where the create's answer lists them (its shape is not documented). */
function storedIpObjects(answer: unknown): LiveIpEntry[] | undefined {
  const objects = answer && typeof answer === 'object' ? (answer as { objects?: unknown }).objects : undefined;
  if (!Array.isArray(objects)) return undefined;
  try {
    return checkIpRules(objects, 'POST /v4/ip_rules').flatMap((object) => liveEntriesFromIpRule(object));
  } catch {
    return undefined;
  }
}

/** What the stored objects hold differently from the declaration, each difference once. */
function ipAnswerRewrites(declared: readonly IpEntry[], stored: readonly LiveIpEntry[]): FieldRewrite[] {
  const found = new Map<string, FieldRewrite>();
  for (const entry of stored) {
    const want = declared.find((d) => d.value === entry.value) ?? (declared.length === 1 ? declared[0] : undefined);
    for (const rewrite of want ? ipRewrites(want, entry) : []) found.set(JSON.stringify(rewrite), rewrite);
  }
  return [...found.values()];
}

/** Deletes rules of one client in one call; the ids the service says it deleted (the others were gone already). */
export async function deleteRules(client: number, ids: readonly number[], context: ExecuteContext): Promise<ReadonlySet<number>> {
  const deleted = await context.api.deleteHints(client, ids, { stopRetrying: context.stopRetrying });
  for (const id of ids) context.journal?.recordRuleDeleted(id);
  return deleted;
}

/**
 * An update in place: the changed fields and a comment whose mark carries the
 * new declaration's fingerprint. A PUT is idempotent, so the client's retry
 * policy repeats it freely. Adopting a rule is the same call on a rule that
 * carried no mark yet.
 */
export async function updateRule(change: UpdateRule | AdoptRule, context: ExecuteContext, how: { readonly adopting: boolean }): Promise<Outcome> {
  const rule = plainRule(change.rule);
  const { id } = change.live;
  // An adopted rule stays marked so: the service may have made it, and may refuse to let it go.
  const request = hintUpdateRequest(rule, change.fields, context.owner, change.rule.source.name, how.adopting || change.live.adopted === true);
  const stored = await context.api.updateHint(id, request, { stopRetrying: context.stopRetrying });
  context.journal?.recordRuleCreated({ ...rule, id, owner: context.owner, fingerprint: ruleFingerprint(rule) });
  const read = liveRuleFromHint(stored);
  return { status: 'applied', id, ...(read ? rewritesOf(rule, read) : {}) };
}

/**
 * Adopting IP values: a forced create of the same values in their own list,
 * with the owner mark; the service takes them out of the unmanaged objects.
 * Never a 409 (forced), and repeating it after an unknown outcome is harmless.
 */
export function adoptIp(change: AdoptIp, context: ExecuteContext): Promise<Outcome> {
  return createIp(change.entries, true, context);
}

/**
 * Deletes IP-list objects of one client in one call. An answer that counts
 * nothing deleted (`{"deleted": 0}`, or an empty body) is not reported as a
 * delete: the objects were gone already (a listing will say if they are not).
 */
export async function deleteIp(client: number, ids: readonly number[], context: ExecuteContext): Promise<Outcome> {
  const answer = await context.api.deleteIpRules(client, ids, { stopRetrying: context.stopRetrying });
  context.journal?.recordIpDeleted(ids);
  return deletedNothing(answer) ? { status: 'already-done', detail: 'already gone: the service deleted nothing' } : { status: 'applied' };
}

function deletedNothing(answer: unknown): boolean {
  if (answer === null || answer === undefined || answer === '') return true;
  if (Array.isArray(answer)) return answer.length === 0;
  const deleted = typeof answer === 'object' ? (answer as { deleted?: unknown }).deleted : undefined;
  return deleted === 0;
}

/** Polls the client's rules for the one this create wrote (by the fingerprint in its mark), or undefined. */
async function findOwnedRule(written: LiveRule, context: ExecuteContext): Promise<LiveRule | undefined> {
  const key = ruleWriteKey(written);
  const deadline = Date.now() + context.verifyTimeoutMs;
  for (;;) {
    const rules = await listClientRules(context.api, written.client, (hint) => liveRuleFromHint(hint));
    const match = rules.find((live) => live.owner === context.owner && listedRuleWriteKey(live) === key);
    if (match) return match;
    if (Date.now() >= deadline) return undefined;
    await sleep(context.verifyIntervalMs);
  }
}
