/**
 * `/v4/ip_rules`, the IP-list API the service's docs show: a create answers
 * the objects it stored (or a count), one call per create; a 409 means the
 * values are in the list already; a forced create moves values out of the
 * objects that held them; a delete names its list, one call per list.
 */
import { checkIpRules } from '../../api/check-records.js';
import { ipCreateCalls } from '../../model/ip-list-apis.js';
import type { IpBackend } from './backend.js';
import { listIpObjects } from './v4-listing.js';
import { liveEntriesFromIpRule } from './v4-records.js';
import { ipRuleCreateRequest } from './v4-requests.js';

export const V4_BACKEND: IpBackend = {
  name: 'v4',
  routes: '/v4/ip_rules',
  probe: async (api, client, call) => {
    await api.listIpRules(client, 'black', 0, 1, call);
  },
  list: (api, client, list, options = {}) => listIpObjects(api, client, list, (object) => {
    options.onCreated?.((object as { created_at?: unknown }).created_at);
    return liveEntriesFromIpRule(object, options.intern);
  }, options),
  async create(api, entries, owner, force, call) {
    const answer = await api.createIpRule(ipRuleCreateRequest(entries, owner, force), call);
    return storedObjects(answer);
  },
  createCalls: (entries) => ipCreateCalls('v4', entries.length),
  conflict: 'already-done',
  movesValues: true,
  async delete(api, client, list, objects, call) {
    return !deletedNothing(await api.deleteIpRules(client, list, objects.map((object) => object.id), call));
  },
  deleteCalls: () => 1,
};

/** The stored objects, where the create's answer lists them (its shape is not documented). */
function storedObjects(answer: unknown) {
  const objects = answer && typeof answer === 'object' ? (answer as { objects?: unknown }).objects : undefined;
  if (!Array.isArray(objects)) return undefined;
  try {
    return checkIpRules(objects, 'POST /v4/ip_rules').flatMap((object) => liveEntriesFromIpRule(object));
  } catch {
    return undefined;
  }
}

/** An answer that counts nothing deleted (`{"deleted": 0}`, or an empty body): the objects were gone already. */
function deletedNothing(answer: unknown): boolean {
  if (answer === null || answer === undefined || answer === '') return true;
  if (Array.isArray(answer)) return answer.length === 0;
  const deleted = typeof answer === 'object' ? (answer as { deleted?: unknown }).deleted : undefined;
  return deleted === 0;
}
