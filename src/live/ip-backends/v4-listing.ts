/**
 * Every object of one client's IP list as the service lists them, in full.
 * The plan's read (classes/ip.ts) and the reads after a write (settle, other
 * writers' copies) both list through here.
 */
import type { ApiIpRule } from '../../api/records.js';
import { IP_RULE_PAGE_LIMIT, type ServiceApi } from '../../api/service.js';
import type { IpListName } from '../../model/ip.js';
import { lastById, normalized } from '../classes/class.js';
import { fetchAllPages, type PagingOptions } from '../paging.js';

export interface IpListingOptions {
  readonly signal?: AbortSignal;
  /** Paging: the expected size, the shared schedule, the listing's name in errors (paging.ts). */
  readonly paging?: PagingOptions;
  /** Told how many objects the listing held (listing-sizes.ts). */
  readonly onListed?: (objects: number) => void;
}

/**
 * Each listed object becomes what `read` makes of it as its page arrives, so
 * no raw page is kept; an object of another client or list is read as holding
 * nothing (the filters are the service's, but trust nothing). An object read
 * twice keeps its later version (lastById: a listing whose order moves).
 */
export async function listIpObjects<T>(
  api: ServiceApi,
  client: number,
  list: IpListName,
  read: (object: ApiIpRule) => T | readonly T[] | undefined,
  options: IpListingOptions = {},
): Promise<T[]> {
  const call = options.signal ? { signal: options.signal } : {};
  const objects = await fetchAllPages(
    async (offset, limit) => (await api.listIpRules(client, list, offset, limit, call))
      .map((object) => normalized(object.id, object.clientid === client && object.list === list ? read(object) : undefined)),
    IP_RULE_PAGE_LIMIT,
    options.paging ?? call,
  );
  options.onListed?.(objects.length);
  return lastById(objects).flatMap((record) => record.objects);
}
