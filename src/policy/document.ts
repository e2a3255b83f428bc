/**
 * The shape of a policy document as written, once the schema has accepted it.
 * Kept apart from the normalized model (src/model) on purpose.
 */

export type ApplicationSpec = number | 'all' | number[];

export interface PolicyDocument {
  readonly version: 1;
  readonly client: number;
  readonly application: ApplicationSpec;
  readonly description?: string;
  readonly mode?: string;
  /** The IP-list API of the account (`v4` or `groups`). */
  readonly ip_api?: string;
  readonly rules?: readonly RuleSpec[];
  readonly ip_lists?: Partial<Record<'deny' | 'allow' | 'gray', readonly IpEntrySpec[]>>;
}

export type { PointSpec } from '../grammar/point-grammar.js';
import type { PointSpec } from '../grammar/point-grammar.js';

/** A rule as written: the common keys, and its kind's own fields by their YAML names. */
export interface RuleSpec {
  readonly name: string;
  /** A rule kind's YAML name (src/rules/registry.ts). */
  readonly type: string;
  readonly point?: readonly PointSpec[];
  readonly when?: readonly ConditionSpec[];
  readonly comment?: string;
  readonly [field: string]: unknown;
}

export interface ConditionSpec {
  /** Absent where `url` stands for the conditions. */
  readonly point?: PointSpec;
  /** A URL, expanded to the service's conditions (url-scope.ts). */
  readonly url?: string;
  readonly equal?: string;
  readonly iequal?: string;
  readonly regex?: string;
  readonly absent?: true;
}

export interface IpEntrySpec {
  readonly ips?: readonly string[];
  readonly countries?: readonly string[];
  readonly proxies?: readonly string[];
  readonly datacenters?: readonly string[];
  readonly reason?: string;
  readonly expires?: string;
}

/** Rampart's owner mark lives in comments and reasons; users must not write one. */
export const OWNER_MARK_PATTERN = /\[managed-by:/;
