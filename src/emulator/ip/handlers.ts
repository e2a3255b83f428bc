/** IP lists: `GET|POST|DELETE /v4/ip_rules`, with existence, force and granularity semantics. */
import { IP_LISTS, IP_RULE_TYPES, NEVER_EXPIRES } from './vocabulary.js';
import type { EmulatorCore, Handler } from '../core.js';
import { HttpError, invalid } from '../envelope.js';
import { isLive, markDeleted, type IpObject, type Stored } from '../store.js';
import { requireIdList, requireRecord } from '../validate.js';
import { housekeep, listedIpObjects } from './listing-cache.js';
import { validateIpRuleCreate, type IpRuleDraft } from './validate.js';

export const MAX_IP_PAGE = 300;
export const DEFAULT_AUTHOR = 'API';

export const listIpRules: Handler = (request, core) => {
  const q = request.query;
  const clientid = queryInt(q, 'filter[clientid]', { required: true, min: 1 });
  core.authorize([clientid]);
  const list = q.get('filter[list]');
  if (list !== null && !(IP_LISTS as readonly string[]).includes(list)) throw invalid(['filter', 'list'], 'is invalid');
  const ruleType = q.get('filter[rule_type]');
  if (ruleType !== null && !(IP_RULE_TYPES as readonly string[]).includes(ruleType)) {
    throw invalid(['filter', 'rule_type'], 'is invalid');
  }
  const offset = queryInt(q, 'offset', { fallback: 0, min: 0 });
  const limit = queryInt(q, 'limit', { fallback: 50, min: 1, max: MAX_IP_PAGE });

  housekeep(core);
  const objects = listedIpObjects(core, { clientid, list, ruleType });
  return { body: { objects: objects.slice(offset, offset + limit).map((o) => structuredClone(o)) } };
};

export const createIpRules: Handler = (request, core) => {
  const draft = withUndocumentedRewrites(validateIpRuleCreate(request.body, core.nowSeconds()), core);
  core.authorize([draft.clientid]);
  housekeep(core);
  const holders = liveHolders(core, draft);
  if (holders.size > 0 && !draft.force) throw new HttpError(409, 'Already exists');
  for (const stored of holders) removeValues(core, stored, draft.values);

  const groups = core.config.ipGranularity === 'per-value' ? draft.values.map((v) => [v]) : [draft.values];
  const created = groups.map((values) => {
    const object = makeObject(draft, values, core.state.nextIds.ip++, core.nowSeconds());
    core.state.ipObjects.set(object.id, { record: object, listedFromMs: core.nowMs() + core.config.listingLagMs });
    return structuredClone(object);
  });
  core.changed();
  return { body: { objects: created }, wrote: true };
};

/** The undocumented-rewrite quirk: expiries stored rounded down to a whole minute (never stays never). */
function withUndocumentedRewrites(draft: IpRuleDraft, core: EmulatorCore): IpRuleDraft {
  if (!core.config.undocumentedRewrites || draft.expired_at >= NEVER_EXPIRES) return draft;
  return { ...draft, expired_at: draft.expired_at - (draft.expired_at % 60) };
}

export const deleteIpRules: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const clients = requireIdList(filter.clientid, ['filter', 'clientid']);
  core.authorize(clients);
  const ids = requireIdList(filter.id, ['filter', 'id']);
  // The service's client names the list (its documentation leaves it out): only that list's objects go.
  const list = filter.list;
  if (list !== undefined && !(IP_LISTS as readonly unknown[]).includes(list)) throw invalid(['filter', 'list'], 'is invalid');
  housekeep(core);
  let deleted = 0;
  for (const id of new Set(ids)) {
    const stored = core.state.ipObjects.get(id);
    if (!stored || !isLive(stored) || !clients.includes(stored.record.clientid)) continue;
    if (list !== undefined && stored.record.list !== list) continue;
    markDeleted(core.state.ipObjects, id, core.nowMs(), core.config.listingLagMs);
    deleted++;
  }
  if (deleted > 0) core.changed();
  return { body: { deleted }, wrote: deleted > 0 };
};

export function objectValues(object: IpObject): string[] {
  return object.rule_type === 'ip_range' ? (object.subnet === null ? [] : [object.subnet]) : (object.source_values ?? []);
}

export function makeObject(draft: Omit<IpRuleDraft, 'values' | 'force'>, values: string[], id: number, nowSec: number): IpObject {
  const ipRange = draft.rule_type === 'ip_range';
  const object: IpObject = {
    id,
    clientid: draft.clientid,
    list: draft.list,
    rule_type: draft.rule_type,
    subnet: ipRange ? (values[0] ?? null) : null,
    source_values: ipRange ? null : [...values],
    pools: [...draft.pools],
    expired_at: draft.expired_at,
    reason: draft.reason,
    created_at: nowSec,
    author: DEFAULT_AUTHOR,
  };
  setSingular(object);
  return object;
}

/** `country` / `proxy_type` / `datacenter`: the first value, as the service shows it. */
function setSingular(object: IpObject): void {
  if (object.rule_type !== 'ip_range') object[object.rule_type] = object.source_values?.[0];
}

/** Live, unexpired objects of the same client, list, type and pools holding any requested value. */
export function liveHolders(core: EmulatorCore, draft: Pick<IpRuleDraft, 'clientid' | 'list' | 'rule_type' | 'pools' | 'values'>): Set<Stored<IpObject>> {
  const pools = JSON.stringify(draft.pools);
  const holders = new Set<Stored<IpObject>>();
  for (const stored of core.state.ipObjects.values()) {
    const o = stored.record;
    if (!isLive(stored) || o.clientid !== draft.clientid || o.list !== draft.list || o.rule_type !== draft.rule_type) continue;
    if (JSON.stringify([...o.pools].sort((a, b) => a - b)) !== pools) continue;
    if (objectValues(o).some((v) => draft.values.includes(v))) holders.add(stored);
  }
  return holders;
}

/** force: take the values out of an existing object; one left empty is deleted. */
function removeValues(core: EmulatorCore, stored: Stored<IpObject>, values: readonly string[]): void {
  const o = stored.record;
  const left = objectValues(o).filter((v) => !values.includes(v));
  if (left.length === 0 || o.rule_type === 'ip_range') {
    markDeleted(core.state.ipObjects, o.id, core.nowMs(), core.config.listingLagMs);
    return;
  }
  o.source_values = left;
  setSingular(o);
}

function queryInt(
  q: URLSearchParams,
  name: string,
  options: { required?: boolean; fallback?: number; min: number; max?: number },
): number {
  const raw = q.get(name);
  const path = name.replace(/\]$/, '').split('[');
  if (raw === null || raw === '') {
    if (options.required || options.fallback === undefined) throw invalid(path, "can't be blank");
    return options.fallback;
  }
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < options.min) throw invalid(path, 'must be a valid integer');
  if (options.max !== undefined && value > options.max) throw invalid(path, `must be less than or equal to ${options.max}`);
  return value;
}
