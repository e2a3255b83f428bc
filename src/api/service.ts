/**
 * The service's endpoints Rampart uses, one method each, on top of ApiClient.
 * Page sizes are the largest each listing allows.
 */
import { ApiProtocolError } from '../errors.js';
import { checkHints, checkIpGroups, checkIpRules } from './check-records.js';
import type { ApiClient, CallOptions } from './client.js';
import { DEFAULT_IP_API, type IpApiName } from '../model/ip-list-apis.js';
import type { ApiAccessRulesCreate, ApiApplication, ApiHint, ApiHintCreate, ApiHintUpdate, ApiIpGroup, ApiIpRule, ApiIpRuleCreate } from './records.js';

export const HINT_PAGE_LIMIT = 1000;
export const IP_RULE_PAGE_LIMIT = 300;
export const HIT_PAGE_LIMIT = 1000;
/** The provider reads the successor IP-list API 1,000 groups at a time. */
export const IP_GROUP_PAGE_LIMIT = 1000;
/** The service's client asks for 500 applications at a time. */
export const APPLICATION_PAGE_LIMIT = 500;

export class ServiceApi {
  /** Which IP-list API the account's lists go through (model/ip-list-apis.ts); the IP adapters ask live/ip-backends for it. */
  ipApi: IpApiName;
  /**
   * It was given (the command line, the environment, a caller), and a
   * policy's `ip_api:` must then agree with it; otherwise a policy's sets it
   * for the run (reconcile/ip-api.ts).
   */
  readonly ipApiGiven: boolean;

  constructor(readonly http: ApiClient, ipApi?: IpApiName) {
    this.ipApi = ipApi ?? DEFAULT_IP_API;
    this.ipApiGiven = ipApi !== undefined;
  }

  async listHints(clientId: number, offset: number, limit = HINT_PAGE_LIMIT, options?: CallOptions): Promise<ApiHint[]> {
    const body = await this.http.call('POST', '/v1/objects/hint', {
      filter: { clientid: [clientId] },
      // An order no write changes: by `updated_at`, a rule updated during the read moves to the end and shifts the rest.
      order_by: 'id',
      order_desc: false,
      limit,
      offset,
    }, options);
    return checkHints(expectArray(body, 'POST /v1/objects/hint'), 'POST /v1/objects/hint');
  }

  /**
   * The client's credential-stuffing rules, which a normal token's hint
   * listing leaves out: one call, the `default` and `custom` lists together.
   */
  async listCredentialRules(clientId: number, options?: CallOptions): Promise<ApiHint[]> {
    const route = '/v4/clients/{clientid}/credential_stuffing/configs';
    const body = await this.http.call('GET', `/v4/clients/${clientId}/credential_stuffing/configs`, undefined, { route, ...options });
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiProtocolError(`GET ${route} answered with a body that is not an object of lists`, { route, body });
    }
    // Both lists, always: an answer without one (or with `null`) is not "no rules", it is an answer Rampart cannot trust.
    const lists = body as { default?: unknown; custom?: unknown };
    for (const list of ['default', 'custom'] as const) {
      if (!Array.isArray(lists[list])) {
        throw new ApiProtocolError(`GET ${route} answered without its "${list}" list: the credential-stuffing rules cannot be read from it`, { route, body });
      }
    }
    const records = [...expectArray(lists.default, `GET ${route}`), ...expectArray(lists.custom, `GET ${route}`)];
    return checkHints(records, `GET ${route}`);
  }

  /** One page of the hits of a client matching `filter` (the service's filter keys), newest first as the service's client reads them. */
  async listHits(clientId: number, filter: Readonly<Record<string, unknown>>, offset: number, limit = HIT_PAGE_LIMIT, options?: CallOptions): Promise<unknown[]> {
    const body = await this.http.call('POST', '/v1/objects/hit', {
      filter: { ...filter, clientid: clientId }, limit, offset, order_by: 'time', order_desc: true,
    }, options);
    return expectArray(body, 'POST /v1/objects/hit');
  }

  /** The conditions the service itself scopes a hit to (without the application), and its client. */
  async actionByHit(id: readonly [string, string], options?: CallOptions): Promise<{ conditions: unknown[]; clientid: number }> {
    const route = 'POST /v1/objects/action/by_hit';
    const body = await this.http.call('POST', '/v1/objects/action/by_hit', { id }, options);
    const answer = body as { conditions?: unknown; clientid?: unknown } | null;
    if (!answer || !Array.isArray(answer.conditions) || typeof answer.clientid !== 'number') {
      throw new ApiProtocolError(`${route} answered without the hit's conditions`, { route, body });
    }
    return { conditions: answer.conditions, clientid: answer.clientid };
  }

  async createHint(hint: ApiHintCreate, options?: CallOptions): Promise<ApiHint> {
    const body = await this.http.call('POST', '/v1/objects/hint/create', hint, { idempotent: false, ...options });
    if (!body || typeof body !== 'object' || typeof (body as ApiHint).id !== 'number') {
      throw new ApiProtocolError('POST /v1/objects/hint/create answered without the new rule id', { body });
    }
    return body as ApiHint;
  }

  /** Deletes rules of one client in one call (up to 1000 ids); returns the ids deleted: one missing was already gone, which is success. */
  async deleteHints(clientId: number, ids: readonly number[], options?: CallOptions): Promise<Set<number>> {
    const body = await this.http.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [clientId], id: ids } }, options);
    const deleted = Array.isArray(body) ? (body as unknown[]) : [];
    return new Set(deleted.flatMap((hint) => (hint && typeof (hint as ApiHint).id === 'number' ? [(hint as ApiHint).id] : [])));
  }

  /** An update in place; the answer is the stored record. */
  async updateHint(id: number, update: ApiHintUpdate, options?: CallOptions): Promise<ApiHint> {
    const route = '/v3/hint/{id}';
    const body = await this.http.call('PUT', `/v3/hint/${id}`, update, { idempotent: true, route, ...options });
    if (!body || typeof body !== 'object' || typeof (body as ApiHint).id !== 'number') {
      throw new ApiProtocolError(`PUT ${route} answered without the rule`, { body });
    }
    return body as ApiHint;
  }

  /** One page of a client's applications, as the service's client reads them (application.go `AppRead`). */
  async listApplications(clientId: number, offset: number, limit = APPLICATION_PAGE_LIMIT, options?: CallOptions): Promise<ApiApplication[]> {
    const route = 'POST /v1/objects/pool';
    const body = await this.http.call('POST', '/v1/objects/pool', { limit, offset, filter: { clientid: [clientId] } }, options);
    const records = expectArray(body, route);
    for (const record of records) {
      const app = record as Partial<ApiApplication> | null;
      if (!app || typeof app !== 'object' || !(app.id === null || Number.isSafeInteger(app.id))) {
        throw new ApiProtocolError(`${route} answered an application without an id`, { route, body: record });
      }
    }
    return records as ApiApplication[];
  }

  async listIpRules(clientId: number, list: string, offset: number, limit = IP_RULE_PAGE_LIMIT, options?: CallOptions): Promise<ApiIpRule[]> {
    const query = new URLSearchParams({
      'filter[clientid]': String(clientId),
      'filter[list]': list,
      offset: String(offset),
      limit: String(limit),
    });
    const body = await this.http.call('GET', `/v4/ip_rules?${query.toString()}`, undefined, options);
    const objects = body && typeof body === 'object' ? (body as { objects?: unknown }).objects : undefined;
    return checkIpRules(expectArray(objects, 'GET /v4/ip_rules'), 'GET /v4/ip_rules');
  }

  async createIpRule(request: ApiIpRuleCreate, options?: CallOptions): Promise<unknown> {
    return this.http.call('POST', '/v4/ip_rules', request, { idempotent: false, ...options });
  }

  /** Deleting ids that are already gone is not an error: the goal is reached. `list` names the list that holds them, as the service's client sent it. */
  async deleteIpRules(clientId: number, list: string, ids: readonly number[], options?: CallOptions): Promise<unknown> {
    return this.http.call('DELETE', '/v4/ip_rules', { filter: { clientid: clientId, id: ids, list } }, options);
  }

  /**
   * One page of a client's groups of one list and the rule types asked for,
   * as the service's clients read the successor IP-list API (no order is
   * sent: the caller sorts).
   */
  async listIpGroups(clientId: number, list: string, ruleTypes: readonly string[], offset: number, limit = IP_GROUP_PAGE_LIMIT, options?: CallOptions): Promise<ApiIpGroup[]> {
    const route = 'GET /v1/blocklist/clients/{clientid}/groups';
    const query = new URLSearchParams({ 'filter[list]': list });
    for (const type of ruleTypes) query.append('filter[rule_type][]', type);
    query.set('limit', String(limit));
    query.set('offset', String(offset));
    const body = await this.http.call('GET', `/v1/blocklist/clients/${clientId}/groups?${query.toString()}`, undefined, { route: '/v1/blocklist/clients/{clientid}/groups', ...options });
    const objects = body && typeof body === 'object' ? (body as { objects?: unknown }).objects : undefined;
    return checkIpGroups(expectArray(objects, route), route);
  }

  /** Creates groups; the service answers no id (`body: null`): what it made is found by reading again. */
  async createAccessRules(clientId: number, request: ApiAccessRulesCreate, options?: CallOptions): Promise<void> {
    await this.http.call('POST', `/v1/blocklist/clients/${clientId}/access_rules`, request, { idempotent: false, route: '/v1/blocklist/clients/{clientid}/access_rules', ...options });
  }

  /** Deletes groups by rule type and id. */
  async deleteIpGroups(clientId: number, rules: readonly { readonly rule_type: string; readonly ids: readonly number[] }[], options?: CallOptions): Promise<unknown> {
    return this.http.call('DELETE', `/v1/blocklist/clients/${clientId}/groups`, { rules }, { route: '/v1/blocklist/clients/{clientid}/groups', ...options });
  }
}

function expectArray(value: unknown, route: string): unknown[] {
  if (!Array.isArray(value)) {
    throw new ApiProtocolError(`${route} answered with a body that is not a list`, { route, body: value });
  }
  return value;
}
