/**
 * The listings an apply reads after its writes, each kept as last read. The
 * settle check reads them afresh until they show every write; the check for
 * other writers' copies needs exactly such a view, so it takes the settle's
 * last read instead of paging the same listings again (calls stay the minimum).
 */
import type { ApiHint, ApiIpRule } from '../api/records.js';
import type { ServiceApi } from '../api/service.js';
import { listIpObjects } from '../live/ip-listing.js';
import { listClientRules } from '../live/rule-listing.js';
import type { IpListName } from '../model/ip.js';

export class ListingReads {
  private readonly rules = new Map<number, readonly ApiHint[]>();
  private readonly ipLists = new Map<string, readonly ApiIpRule[]>();

  constructor(
    readonly api: ServiceApi,
    readonly stop?: AbortSignal,
  ) {}

  /** A client's rules, read now. */
  async readRules(client: number): Promise<readonly ApiHint[]> {
    const hints = await listClientRules(this.api, client, (hint) => hint, this.stop ? { signal: this.stop } : {});
    this.rules.set(client, hints);
    return hints;
  }

  /** A client's rules as last read, or read now. */
  lastRules(client: number): Promise<readonly ApiHint[]> {
    const known = this.rules.get(client);
    return known ? Promise.resolve(known) : this.readRules(client);
  }

  /** One IP list of a client, read now. */
  async readIpList(client: number, list: IpListName): Promise<readonly ApiIpRule[]> {
    const objects = await listIpObjects(this.api, client, list, (object) => object, this.stop ? { signal: this.stop } : {});
    this.ipLists.set(`${client}|${list}`, objects);
    return objects;
  }

  /** One IP list of a client as last read, or read now. */
  lastIpList(client: number, list: IpListName): Promise<readonly ApiIpRule[]> {
    const known = this.ipLists.get(`${client}|${list}`);
    return known ? Promise.resolve(known) : this.readIpList(client, list);
  }
}
