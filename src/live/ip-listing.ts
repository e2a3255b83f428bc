/**
 * Every object of one client's IP list as the service lists them, in full.
 * For the reads after a write (settle, other writers' copies); the plan's read
 * (read.ts) pages the same listing alongside the others.
 */
import type { ApiIpRule } from '../api/records.js';
import { IP_RULE_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import type { IpListName } from '../model/ip.js';
import { fetchAllPages } from './paging.js';

export function listIpObjects(api: ServiceApi, client: number, list: IpListName, signal?: AbortSignal): Promise<ApiIpRule[]> {
  const options = signal ? { signal } : {};
  return fetchAllPages((offset, limit) => api.listIpRules(client, list, offset, limit, options), IP_RULE_PAGE_LIMIT);
}
