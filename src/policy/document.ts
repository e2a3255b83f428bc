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
  readonly rules?: readonly RuleSpec[];
  readonly ip_lists?: Partial<Record<'deny' | 'allow' | 'gray', readonly IpEntrySpec[]>>;
}

export type PointSpec = readonly (string | number)[];

export interface RuleSpec {
  readonly name: string;
  readonly type: 'vpatch' | 'regex' | 'mode';
  readonly attack?: string;
  readonly point?: readonly PointSpec[];
  readonly regex?: string;
  readonly mode?: string;
  readonly when?: readonly ConditionSpec[];
  readonly comment?: string;
}

export interface ConditionSpec {
  readonly point: PointSpec;
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

/** The filtering modes seen on the service (api-notes.md). */
export const FILTERING_MODES = ['default', 'off', 'monitoring', 'safe_blocking', 'block'] as const;

/** Rampart's owner mark lives in comments and reasons; users must not write one. */
export const OWNER_MARK_PATTERN = /\[managed-by:/;
