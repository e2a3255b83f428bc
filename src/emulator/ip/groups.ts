/**
 * The successor IP-list API, `/v1/blocklist/clients/{C}/groups` and
 * `/access_rules`, as the service's Go client and Terraform provider use it
 * since March 2026: a second view of the same stored lists as `/v4/ip_rules`
 * (one store, two views, as the service's notes assume).
 *
 * - Names: lists `block`/`allow`/`gray` (v4 `black`/`white`/`gray`); rule types
 *   `subnet`, `location`, `datacenter`, `proxy_type`; `application_ids` (v4
 *   `pools`), `[0]` for all applications.
 * - A create takes every key (`list`, `force`, `reason`, `application_ids`,
 *   `expired_at`, `rules`) and answers `body: null`: no id. A subnet rule
 *   makes one group per value (a bare IPv4 becomes /32); countries,
 *   datacenters and proxy types one group holding the values. Each create
 *   makes new groups (never merged into one). New groups are listed after the
 *   listing lag, as every write is.
 * - A value already held (same list and type, overlapping applications) makes
 *   the create 409, whole. `force: true` has no source: it is refused.
 * - A delete takes `{rules: [{rule_type, ids}]}`; an unknown id is ignored.
 * - No order is documented: groups are listed by id.
 * The choices made where the notes say "no source" are written here.
 */
import type { Handler } from '../core.js';
import { HttpError, invalid } from '../envelope.js';
import { isLive, markDeleted, type IpObject } from '../store.js';
import { requireRecord } from '../validate.js';
import { liveHolders, makeObject, objectValues } from './handlers.js';
import { housekeep, listedIpObjects } from './listing-cache.js';
import { normalizeSubnet } from './subnet.js';
import { SOURCE_CHECKS } from './validate.js';
import { NEVER_EXPIRES, type IpListName, type IpRuleType } from './vocabulary.js';

/** The successor API's list and rule-type names, by the store's. */
const LIST_NAMES: Readonly<Record<IpListName, string>> = { black: 'block', white: 'allow', gray: 'gray' };
const TYPE_NAMES: Readonly<Record<IpRuleType, string>> = { ip_range: 'subnet', country: 'location', proxy_type: 'proxy_type', datacenter: 'datacenter' };
const STORE_LIST = invert(LIST_NAMES) as Readonly<Record<string, IpListName>>;
const STORE_TYPE = invert(TYPE_NAMES) as Readonly<Record<string, IpRuleType>>;

/** The provider reads 1,000 at a time; the page-size maximum has no source: larger is refused. */
export const MAX_GROUP_PAGE = 1000;
/** The provider's bound on subnets in one create. */
const MAX_SUBNETS_PER_CREATE = 1000;

export const listGroups: Handler = (request, core) => {
  const clientid = clientOf(request.params.clientid);
  core.authorize([clientid]);
  const q = request.query;
  const listName = q.get('filter[list]');
  const list = listName === null ? null : STORE_LIST[listName];
  if (listName !== null && list === undefined) throw invalid(['filter', 'list'], 'is invalid');
  const typeNames = q.getAll('filter[rule_type][]');
  const types = typeNames.map((name) => STORE_TYPE[name]);
  if (types.some((type) => type === undefined)) throw invalid(['filter', 'rule_type'], 'is invalid');
  const limit = count(q.get('limit'), 'limit', 50, 1, MAX_GROUP_PAGE);
  const offset = count(q.get('offset'), 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  housekeep(core);
  const objects = listedIpObjects(core, { clientid, list: list ?? null, ruleType: null })
    .filter((object) => types.length === 0 || types.includes(object.rule_type));
  return { body: { objects: objects.slice(offset, offset + limit).map(groupOf) } };
};

export const createAccessRules: Handler = (request, core) => {
  const clientid = clientOf(request.params.clientid);
  core.authorize([clientid]);
  const body = requireRecord(request.body, 'body');
  for (const key of ['list', 'force', 'reason', 'application_ids', 'expired_at', 'rules']) {
    if (!Object.hasOwn(body, key)) throw invalid(key, "can't be blank");
  }
  const list = typeof body.list === 'string' ? STORE_LIST[body.list] : undefined;
  if (!list) throw invalid('list', 'must be one of: block, allow, gray');
  if (body.force !== false) throw invalid('force', 'must be false');
  if (typeof body.reason !== 'string') throw invalid('reason', 'must be a string');
  const pools = applicationIds(body.application_ids);
  const expiredAt = expiry(body.expired_at, core.nowSeconds());
  if (!Array.isArray(body.rules) || body.rules.length === 0) throw invalid('rules', "can't be blank");
  const drafts = body.rules.map((rule, index) => ruleDraft(rule, index));
  housekeep(core);
  for (const draft of drafts) {
    if (liveHolders(core, { clientid, list, rule_type: draft.type, pools, values: draft.values }).size > 0) throw new HttpError(409, 'Already exists');
  }
  const nowSec = core.nowSeconds();
  for (const draft of drafts) {
    const groups = draft.type === 'ip_range' ? draft.values.map((value) => [value]) : [draft.values];
    for (const values of groups) {
      const object = makeObject({ clientid, list, rule_type: draft.type, pools, expired_at: expiredAt, reason: body.reason }, values, core.state.nextIds.ip++, nowSec);
      core.state.ipObjects.set(object.id, { record: object, listedFromMs: core.nowMs() + core.config.listingLagMs });
    }
  }
  core.changed();
  return { body: null, wrote: true };
};

export const deleteGroups: Handler = (request, core) => {
  const clientid = clientOf(request.params.clientid);
  core.authorize([clientid]);
  const body = requireRecord(request.body, 'body');
  if (!Array.isArray(body.rules) || body.rules.length === 0) throw invalid('rules', "can't be blank");
  housekeep(core);
  let deleted = 0;
  for (const rule of body.rules) {
    const { rule_type: typeName, ids } = requireRecord(rule, 'rules');
    const type = typeof typeName === 'string' ? STORE_TYPE[typeName] : undefined;
    if (!type) throw invalid(['rules', 'rule_type'], 'is invalid');
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => Number.isSafeInteger(id))) throw invalid(['rules', 'ids'], 'must be a list of ids');
    for (const id of ids as number[]) {
      const stored = core.state.ipObjects.get(id);
      if (!stored || !isLive(stored) || stored.record.clientid !== clientid || stored.record.rule_type !== type) continue;
      markDeleted(core.state.ipObjects, id, core.nowMs(), core.config.listingLagMs);
      deleted++;
    }
  }
  if (deleted > 0) core.changed();
  return { body: null, wrote: deleted > 0 };
};

/** A stored object as the successor API lists it. */
function groupOf(object: IpObject): Record<string, unknown> {
  return {
    id: object.id,
    client_id: object.clientid,
    rule_type: TYPE_NAMES[object.rule_type],
    list: LIST_NAMES[object.list],
    created_at: object.created_at,
    expired_at: object.expired_at,
    application_ids: [...object.pools],
    reason: object.reason,
    author_user_id: null,
    values: objectValues(object),
    status: 'enabled',
  };
}

function ruleDraft(rule: unknown, position: number): { type: IpRuleType; values: string[] } {
  const index = String(position);
  const { rules_type: typeName, values } = requireRecord(rule, ['rules', index]);
  const type = typeof typeName === 'string' ? STORE_TYPE[typeName] : undefined;
  if (!type) throw invalid(['rules', index, 'rules_type'], 'must be one of: subnet, location, datacenter, proxy_type');
  if (!Array.isArray(values) || values.length === 0) throw invalid(['rules', index, 'values'], "can't be blank");
  if (type === 'ip_range' && values.length > MAX_SUBNETS_PER_CREATE) throw invalid(['rules', index, 'values'], `at most ${MAX_SUBNETS_PER_CREATE} subnets`);
  const out: string[] = [];
  for (const value of values) {
    const stored = typeof value !== 'string' ? undefined : type === 'ip_range' ? subnet(value) : SOURCE_CHECKS[type](value);
    if (stored === undefined) throw invalid(['rules', index, 'values'], `${JSON.stringify(value)} is not a valid ${typeName as string}`);
    if (!out.includes(stored)) out.push(stored);
  }
  return { type, values: out };
}

function subnet(value: string): string | undefined {
  const result = normalizeSubnet(value);
  return 'cidr' in result ? result.cidr : undefined;
}

/** `[0]` is all applications; each id once, sorted (as the store compares them). */
function applicationIds(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid('application_ids', "can't be blank");
  if (!value.every((id) => Number.isSafeInteger(id) && (id as number) >= 0)) throw invalid('application_ids', 'must be non-negative integers');
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

/** Unix seconds in the future; the provider writes "never" as now + 100 years, read (as v4 stores it) as never. */
function expiry(value: unknown, nowSeconds: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid('expired_at', 'must be a Unix timestamp');
  if (value <= nowSeconds) throw invalid('expired_at', 'must be in the future');
  return Math.min(value, NEVER_EXPIRES);
}

function clientOf(raw: string | undefined): number {
  if (!raw || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw invalid('clientid', 'must be a positive integer');
  return Number(raw);
}

function count(raw: string | null, name: string, fallback: number, min: number, max: number): number {
  if (raw === null) return fallback;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw invalid(name, `must be an integer from ${min} to ${max}`);
  return value;
}

function invert(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [value, key]));
}
