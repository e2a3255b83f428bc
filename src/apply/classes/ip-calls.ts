/**
 * An IP entry's changes as calls to the account's IP-list API, through its
 * backend (live/ip-backends/): a create of values written together, an
 * adoption (a forced create, where the API moves values), a delete per list.
 * Where a create answers no id (the groups API), the list is read again until
 * the values appear, within the verify timeout.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { mayHaveBeenApplied } from '../../api/retry.js';
import { ApiConflictError, ApplyFailedError } from '../../errors.js';
import { ipBackendOf, type IpObjectRef } from '../../live/ip-backends/index.js';
import { UNKNOWN_ID } from '../../live/write-journal.js';
import { ipWriteKey, ipFingerprint, listedIpWriteKey } from '../../model/ip-fingerprint.js';
import { LIST_LABELS, plainIpEntry, type IpEntry, type IpListName, type LiveIpEntry } from '../../model/ip.js';
import type { AdoptIp } from '../../model/ip-change.js';
import { type FieldRewrite } from '../../model/rewrites.js';
import { ipRewrites } from '../../model/ip-rewrites.js';
import { MAX_CREATE_ATTEMPTS, type ExecuteContext, type Outcome } from '../execute.js';
import type { ListingRead } from '../listing-reads.js';

/** One object holding `declared` (values sharing a list, type, pools, expiry and reason); `force` moves them out of the objects holding them. */
export async function createIp(declared: readonly IpEntry[], force: boolean, context: ExecuteContext, replaces: readonly number[] = []): Promise<Outcome> {
  const backend = ipBackendOf(context.api);
  if (force && !backend.movesValues) await replaceFirst(declared, replaces, context);
  const entries = declared.map(plainIpEntry);
  const live = entries.map((entry) => ({
    ...entry, id: UNKNOWN_ID, objectSize: entries.length, owner: context.owner, fingerprint: ipFingerprint(entry),
  }));
  const record = () => context.journal?.recordCreated('ip', live);
  context.journal?.recordCreateIntent('ip', live);
  let stored: readonly LiveIpEntry[] | undefined;
  // Repeating after an unknown outcome: on v4 a forced create overwrites and an
  // unforced one answers 409 if an earlier attempt went through; on the groups
  // API the list is read first, and only what is missing is written again.
  let missing = entries;
  for (let attempt = 1; ; attempt++) {
    try {
      stored = await backend.create(context.api, missing, context.owner, force, { stopRetrying: context.stopRetrying });
      break;
    } catch (error) {
      if (error instanceof ApiConflictError) {
        if (backend.conflict === 'refused' && attempt === 1) {
          context.journal?.recordCreateAbandoned(live.map(ipWriteKey));
          throw new ApiConflictError(`the ${LIST_LABELS[entries[0]?.list ?? 'black']} list of client ${entries[0]?.client ?? '?'} already holds ${describe(missing)} in another group (409): ${error.message}. ` +
            'The groups API keeps one group per value and cannot move one: delete the other group in the console, or declare the value as it is listed', { cause: error, httpStatus: 409, ...(error.route ? { route: error.route } : {}) });
        }
        record();
        // On the first attempt: the values were in the list already (our earlier write, or one not listed yet).
        return attempt === 1 ? { status: 'already-done', detail: 'already in the list (409)' } : { status: 'applied', detail: 'outcome was unknown; the repeat found it done (409)' };
      }
      if (!mayHaveBeenApplied(error)) {
        if (attempt === 1) context.journal?.recordCreateAbandoned(live.map(ipWriteKey));
        throw error;
      }
      if (attempt >= MAX_CREATE_ATTEMPTS || context.stopRetrying?.aborted) throw error;
      if (backend.conflict === 'refused') {
        const found = await listedOwn(entries, context);
        missing = entries.filter((entry) => !found.has(ipWriteKey(entry)));
        if (missing.length === 0) break;
      }
    }
  }
  record();
  if (!stored) return backend.conflict === 'refused' ? found(entries, context) : { status: 'applied' };
  const rewrites = ipAnswerRewrites(entries, stored);
  return { status: 'applied', ids: [...new Set(stored.map((e) => e.id))], ...(rewrites.length > 0 ? { rewrites } : {}) };
}

/**
 * A create that answered no id: the list is read until every value shows,
 * held by an object with this run's mark, within the verify timeout. Values
 * still missing fail the apply clearly; the next run reads them by their
 * mark (and the journal remembers them), so it never writes them twice.
 */
async function found(entries: readonly IpEntry[], context: ExecuteContext): Promise<Outcome> {
  const deadline = Date.now() + context.verifyTimeoutMs;
  for (;;) {
    const listed = await listedOwn(entries, context);
    const missing = entries.filter((entry) => !listed.has(ipWriteKey(entry)));
    if (missing.length === 0) return { status: 'applied', ids: [...new Set(entries.map((entry) => listed.get(ipWriteKey(entry)) as number))] };
    const left = deadline - Date.now();
    if (left <= 0 || context.stopRetrying?.aborted) {
      const [first] = entries;
      throw new ApplyFailedError(`created ${describe(missing)} in the ${LIST_LABELS[first?.list ?? 'black']} list of client ${first?.client ?? '?'}, ` +
        `but the list does not show ${missing.length === 1 ? 'it' : 'them'} after ${Math.round(context.verifyTimeoutMs / 1000)} s (the service answers a create with no id). ` +
        'Run again: the next plan finds them by their owner mark once they are listed, and does not create them twice');
    }
    // The last look is at the deadline, not an interval past it.
    await sleep(Math.min(context.verifyIntervalMs, left));
  }
}

/** Write key → id of the object holding it, for this run's owner, in the list of `entries`. */
async function listedOwn(entries: readonly IpEntry[], context: ExecuteContext): Promise<Map<string, number>> {
  const [first] = entries;
  if (!first) return new Map();
  const listed = await ipBackendOf(context.api).list(context.api, first.client, first.list, context.stopRetrying ? { signal: context.stopRetrying } : {});
  const held = new Map<string, number>();
  for (const entry of listed) {
    const key = entry.owner === context.owner ? listedIpWriteKey(entry) : undefined;
    if (key !== undefined && !held.has(key)) held.set(key, entry.id);
  }
  return held;
}

function describe(entries: readonly IpEntry[]): string {
  const values = entries.map((entry) => entry.value);
  return values.length <= 5 ? values.join(', ') : `${values.slice(0, 5).join(', ')} and ${values.length - 5} more`;
}

/** What the stored objects hold differently from the declaration, each difference once. */
function ipAnswerRewrites(declared: readonly IpEntry[], stored: readonly LiveIpEntry[]): FieldRewrite[] {
  const rewrites = new Map<string, FieldRewrite>();
  for (const entry of stored) {
    const want = declared.find((d) => d.value === entry.value) ?? (declared.length === 1 ? declared[0] : undefined);
    for (const rewrite of want ? ipRewrites(want, entry) : []) rewrites.set(JSON.stringify(rewrite), rewrite);
  }
  return [...rewrites.values()];
}

/**
 * Adopting IP values: a forced create of the same values in their own list,
 * with the owner mark; the service takes them out of the unmanaged objects.
 * Never a 409 (forced), and repeating it after an unknown outcome is harmless.
 * An API that cannot move a value (the groups API) refuses: adopting would
 * delete the group and create it again, its values unprotected in between.
 */
export function adoptIp(change: AdoptIp, context: ExecuteContext): Promise<Outcome> {
  return createIp(change.entries, true, context);
}

/**
 * A forced create on an API that cannot move a value (the groups API): the
 * owned objects it replaces are deleted first, when they hold nothing but
 * the values written again (a change of expiry or reason of our own group,
 * the way the service's provider makes it: those values are unlisted between
 * the two calls, nothing else is touched). Anything more (adopting a foreign
 * group, rescuing values from a group whose others go) is refused.
 */
async function replaceFirst(declared: readonly IpEntry[], replaces: readonly number[], context: ExecuteContext): Promise<void> {
  const [first] = declared;
  const backend = ipBackendOf(context.api);
  if (!first || replaces.length === 0) throw cannotMove(backend.name, declared);
  const listed = await backend.list(context.api, first.client, first.list, context.stopRetrying ? { signal: context.stopRetrying } : {});
  const written = new Set(declared.map((entry) => entry.value));
  const held = listed.filter((entry) => replaces.includes(entry.id));
  if (held.some((entry) => !written.has(entry.value) || entry.owner !== context.owner)) throw cannotMove(backend.name, declared);
  const refs = [...new Map(held.map((entry) => [entry.id, { id: entry.id, ruleType: entry.ruleType }])).values()];
  if (refs.length > 0) await deleteIp(first.client, first.list, refs, context);
}

/**
 * Moving values out of an object (adopting them, or keeping them when others
 * of the object go) needs an API that moves a value; the groups API would
 * delete the group and create it again, its values unprotected in between.
 */
function cannotMove(api: string, entries: readonly IpEntry[]): ApplyFailedError {
  return new ApplyFailedError(`moving ${describe(entries)} out of the object that holds them needs an IP-list API that moves values; the ${api} API cannot ` +
    '(it would delete the group and create it again, its values unprotected in between). Make this change with --ip-api v4 (both APIs show the same lists), then switch back');
}

/**
 * Deletes IP-list objects of one client's list. An answer that counts
 * nothing deleted is not reported as a delete: the objects were gone already
 * (a listing will say if they are not).
 */
export async function deleteIp(client: number, list: IpListName, objects: readonly IpObjectRef[], context: ExecuteContext): Promise<Outcome> {
  const deleted = await ipBackendOf(context.api).delete(context.api, client, list, objects, { stopRetrying: context.stopRetrying });
  context.journal?.recordDeleted('ip', objects.map((object) => object.id));
  return deleted ? { status: 'applied' } : { status: 'already-done', detail: 'already gone: the service deleted nothing' };
}

/** One IP list of a client, as apply reads it after its writes (listing-reads.ts): its entries, one per value. */
export function ipListing(client: number, list: IpListName): ListingRead<LiveIpEntry> {
  return { key: `ip|${client}|${list}`, read: (api, signal) => ipBackendOf(api).list(api, client, list, signal ? { signal } : {}) };
}
