/**
 * The seam between the IP class and the service's IP-list APIs: reading the
 * entries of a client's list, writing a set of values, deleting objects, and
 * what a create answers (or does not). The plan, apply, audit, impact, export
 * and adopt code reach `/v4/ip_rules` or the successor groups API only
 * through an IpBackend (index.ts picks it by the connection's `ipApi`); the
 * IP class and its policy language do not change with it.
 */
import type { CallOptions } from '../../api/client.js';
import type { IpApiName } from '../../model/ip-list-apis.js';
import type { ServiceApi } from '../../api/service.js';
import type { Interner } from '../../model/interner.js';
import type { IpEntry, IpListName, IpRuleType, LiveIpEntry } from '../../model/ip.js';
import type { PagingOptions } from '../paging.js';

export interface IpListOptions {
  readonly signal?: AbortSignal;
  /** Paging: the expected size, the shared schedule, the listing's name in errors (paging.ts). */
  readonly paging?: PagingOptions;
  /** Told how many objects the listing held (listing-sizes.ts). */
  readonly onListed?: (objects: number) => void;
  /** Told when each listed object was made, where the listing says (unix seconds). */
  readonly onCreated?: (seconds: unknown) => void;
  readonly intern?: Interner;
}

/** An object a delete removes: its id and the type of what it holds. */
export interface IpObjectRef {
  readonly id: number;
  readonly ruleType: IpRuleType;
}

export interface IpBackend {
  readonly name: IpApiName;
  /** The routes it calls, as the plan header and docs name them. */
  readonly routes: string;
  /** One object of a client's deny list, or none: whether the token may read the lists (`rampart doctor`). */
  probe(api: ServiceApi, client: number, call: CallOptions): Promise<void>;
  /** Every object of one client's list, split into its values, as the service lists them. */
  list(api: ServiceApi, client: number, list: IpListName, options?: IpListOptions): Promise<LiveIpEntry[]>;
  /**
   * Writes `entries` (values sharing a list, type, applications, expiry and
   * reason) with the owner mark. Answers what the service says it stored,
   * or undefined when its answer does not say (then apply reads the list
   * again until the values appear).
   */
  create(api: ServiceApi, entries: readonly IpEntry[], owner: string, force: boolean, call: CallOptions): Promise<readonly LiveIpEntry[] | undefined>;
  /** The calls `create` makes for these entries: what a plan counts. */
  createCalls(entries: readonly IpEntry[]): number;
  /**
   * What a 409 on a create means: `already-done` (v4: the values are in the
   * list, an earlier attempt's or a write not listed yet) or `refused` (the
   * groups API: a value is held by another group; a clear error, never a
   * retry loop).
   */
  readonly conflict: 'already-done' | 'refused';
  /**
   * Whether a forced create moves values out of the objects holding them
   * (adoption). Without it, adopting would delete and create a group, its
   * values unprotected in between: refused with the way out.
   */
  readonly movesValues: boolean;
  /** Deletes objects of one client's list in as few calls as the API takes; false when the service says it deleted nothing. */
  delete(api: ServiceApi, client: number, list: IpListName, objects: readonly IpObjectRef[], call: CallOptions): Promise<boolean>;
  /** The calls `delete` makes for these objects. */
  deleteCalls(objects: readonly IpObjectRef[]): number;
}
