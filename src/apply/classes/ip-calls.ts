/**
 * An IP entry's changes as calls to the service's IP-list API (`/v4/ip_rules`,
 * the one backend of the IP class today): a create of values written
 * together, an adoption (a forced create), a batched delete per client.
 */
import { checkIpRules } from '../../api/check-records.js';
import type { ApiIpRule } from '../../api/records.js';
import { listIpObjects } from '../../live/ip-listing.js';
import { mayHaveBeenApplied } from '../../api/retry.js';
import { ApiConflictError } from '../../errors.js';
import { liveEntriesFromIpRule } from '../../live/normalize-ip-rule.js';
import { UNKNOWN_ID } from '../../live/write-journal.js';
import { ipWriteKey, ipFingerprint } from '../../model/ip-fingerprint.js';
import { plainIpEntry, type IpEntry, type IpListName, type LiveIpEntry } from '../../model/ip.js';
import type { AdoptIp } from '../../model/ip-change.js';
import { type FieldRewrite } from '../../model/rewrites.js';
import { ipRewrites } from '../../model/ip-rewrites.js';
import { MAX_CREATE_ATTEMPTS, type ExecuteContext, type Outcome } from '../execute.js';
import type { ListingRead } from '../listing-reads.js';
import { ipRuleCreateRequest } from './ip-requests.js';

/** One object holding `declared` (values sharing a list, type, pools, expiry and reason); `force` moves them out of the objects holding them. */
export async function createIp(declared: readonly IpEntry[], force: boolean, context: ExecuteContext): Promise<Outcome> {
  const entries = declared.map(plainIpEntry);
  const request = ipRuleCreateRequest(entries, context.owner, force);
  const live = entries.map((entry) => ({
    ...entry, id: UNKNOWN_ID, objectSize: entries.length, owner: context.owner, fingerprint: ipFingerprint(entry),
  }));
  const record = () => context.journal?.recordCreated('ip', live);
  context.journal?.recordCreateIntent('ip', live);
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
export async function deleteIp(client: number, list: IpListName, ids: readonly number[], context: ExecuteContext): Promise<Outcome> {
  const answer = await context.api.deleteIpRules(client, list, ids, { stopRetrying: context.stopRetrying });
  context.journal?.recordDeleted('ip', ids);
  return deletedNothing(answer) ? { status: 'already-done', detail: 'already gone: the service deleted nothing' } : { status: 'applied' };
}

function deletedNothing(answer: unknown): boolean {
  if (answer === null || answer === undefined || answer === '') return true;
  if (Array.isArray(answer)) return answer.length === 0;
  const deleted = typeof answer === 'object' ? (answer as { deleted?: unknown }).deleted : undefined;
  return deleted === 0;
}

/** One IP list of a client, as apply reads it after its writes (listing-reads.ts). */
export function ipListing(client: number, list: IpListName): ListingRead<ApiIpRule> {
  return { key: `ip|${client}|${list}`, read: (api, signal) => listIpObjects(api, client, list, (object) => object, signal ? { signal } : {}) };
}
