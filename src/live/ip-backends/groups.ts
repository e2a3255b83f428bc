/**
 * The successor IP-list API (`/v1/blocklist/clients/{C}/groups` and
 * `/access_rules`), as the service's Go client and Terraform provider call it
 * since March 2026:
 * - read with the provider's filters (the list, every rule type) and page
 *   size (1,000), sorted here (no order is sent);
 * - a create answers no id: apply reads the list again until the values
 *   appear (apply/classes/ip-calls.ts);
 * - **one group per value** for what Rampart creates, countries, datacenters
 *   and proxy types included: the API has no call that modifies a group, and
 *   a value already held makes a create 409, so a group of many values could
 *   change only by deleting it first, its other values unprotected until the
 *   new one exists. One value a group makes every later change a plain create
 *   of the value added and delete of the value removed: the rest of the list
 *   is never touched. It costs a call per value on the first create.
 * - a 409 is refused clearly (a value held by another group of the list);
 * - no call moves a value out of a group, so adoption is refused (index.ts).
 */
import type { ApiIpGroup } from '../../api/records.js';
import { IP_GROUP_PAGE_LIMIT } from '../../api/service.js';
import { InternalError } from '../../errors.js';
import { ipCreateCalls } from '../../model/ip-list-apis.js';
import { ipFingerprint } from '../../model/ip-fingerprint.js';
import { IP_LISTS, IP_RULE_TYPES, type IpListName, type IpRuleType, NEVER_EXPIRES } from '../../model/ip.js';
import { withOwnerMark } from '../../model/ownership.js';
import { lastById, normalized } from '../classes/class.js';
import { fetchAllPages } from '../paging.js';
import type { IpBackend } from './backend.js';
import { liveEntriesOf } from './entries.js';

/** The API's list and rule-type names, by the model's (which are v4's). */
const LIST_NAMES: Readonly<Record<IpListName, string>> = { black: 'block', white: 'allow', gray: 'gray' };
const TYPE_NAMES: Readonly<Record<IpRuleType, string>> = { ip_range: 'subnet', country: 'location', proxy_type: 'proxy_type', datacenter: 'datacenter' };
const MODEL_LISTS = new Map<string, IpListName>(IP_LISTS.map((list) => [LIST_NAMES[list], list]));
const MODEL_TYPES = new Map<string, IpRuleType>(IP_RULE_TYPES.map((type) => [TYPE_NAMES[type], type]));
/** Every type, in the provider's order: the read asks for all of them. */
const ALL_TYPES = IP_RULE_TYPES.map((type) => TYPE_NAMES[type]);

export const GROUPS_BACKEND: IpBackend = {
  name: 'groups',
  routes: '/v1/blocklist/clients/{client}/groups',
  async probe(api, client, call) {
    await api.listIpGroups(client, LIST_NAMES.black, ALL_TYPES, 0, 1, call);
  },
  async list(api, client, list, options = {}) {
    const call = options.signal ? { signal: options.signal } : {};
    const apiList = LIST_NAMES[list];
    const records = await fetchAllPages(
      async (offset, limit) => (await api.listIpGroups(client, apiList, ALL_TYPES, offset, limit, call))
        .map((group) => {
          options.onCreated?.(group.created_at);
          return normalized(group.id, group.client_id === client && group.list === apiList ? entriesOf(group, options.intern) : undefined);
        }),
      IP_GROUP_PAGE_LIMIT,
      options.paging ?? call,
    );
    options.onListed?.(records.length);
    // No order is sent: the listing is sorted here, by id as the plan reads it.
    return lastById(records).flatMap((record) => record.objects).sort((a, b) => a.id - b.id);
  },
  async create(api, entries, owner, _force, call) {
    const [first] = entries;
    if (!first) throw new InternalError('an IP create needs at least one entry');
    // One group per value (see above); the provider sends at most 1,000 subnets a call, and each makes its own group anyway.
    for (const entry of entries) {
      await api.createAccessRules(first.client, {
        list: LIST_NAMES[first.list],
        force: false,
        reason: withOwnerMark(first.reason, { owner, fingerprint: ipFingerprint(entry) }),
        application_ids: [...first.pools],
        // The provider writes "never" as now + 100 years; the store reads either as never.
        expired_at: first.expiresAt >= NEVER_EXPIRES ? Math.floor(Date.now() / 1000) + HUNDRED_YEARS : first.expiresAt,
        rules: [{ rules_type: TYPE_NAMES[first.ruleType], values: [entry.value] }],
      }, call);
    }
    return undefined;
  },
  createCalls: (entries) => ipCreateCalls('groups', entries.length),
  conflict: 'refused',
  movesValues: false,
  async delete(api, client, _list, objects, call) {
    await api.deleteIpGroups(client, byType(objects), call);
    // The answer says nothing of what went: the listing tells.
    return true;
  },
  deleteCalls: () => 1,
};

const HUNDRED_YEARS = 100 * 365 * 86_400;

function entriesOf(group: ApiIpGroup, intern: Parameters<typeof liveEntriesOf>[1]) {
  const list = MODEL_LISTS.get(group.list);
  const ruleType = MODEL_TYPES.get(group.rule_type);
  if (!list || !ruleType) return [];
  return liveEntriesOf({
    id: group.id, client: group.client_id, list, ruleType, values: group.values,
    // `[0]` is every application, as v4's pools.
    pools: group.application_ids, expiredAt: group.expired_at === 0 ? null : group.expired_at, reason: group.reason,
  }, intern);
}

/** One entry per rule type, its ids sorted. */
function byType(objects: readonly { readonly id: number; readonly ruleType: IpRuleType }[]): { rule_type: string; ids: number[] }[] {
  const ids = new Map<IpRuleType, number[]>();
  for (const object of objects) ids.set(object.ruleType, [...(ids.get(object.ruleType) ?? []), object.id]);
  return [...ids].map(([type, list]) => ({ rule_type: TYPE_NAMES[type], ids: list.sort((a, b) => a - b) }));
}
