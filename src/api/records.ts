/**
 * The shapes the API sends and accepts, as far as Rampart reads them. Fields we
 * do not use are ignored; everything read is checked before it is trusted.
 */

/** A condition as listed: `point` flat or nested, `value` null for `absent`. */
export interface ApiCondition {
  readonly point: readonly (string | number)[];
  readonly type: string;
  readonly value?: string | number | null;
}

export interface ApiHint {
  readonly id: number;
  readonly actionid?: number;
  readonly clientid: number;
  readonly type: string;
  readonly action?: readonly ApiCondition[];
  /** Sent two-dimensional, listed flat. */
  readonly point?: readonly unknown[];
  readonly attack_type?: string | null;
  readonly regex?: string | null;
  readonly mode?: string | null;
  readonly comment?: string | null;
  /** Rules the service made and keeps itself (e.g. an account's default mode). */
  readonly system?: boolean | null;
}

export interface ApiHintCreate {
  readonly clientid: number;
  readonly type: string;
  readonly action: readonly { point: readonly (string | number)[]; type: string; value?: string }[];
  readonly validated: boolean;
  readonly point?: readonly (readonly (string | number)[])[];
  readonly attack_type?: string;
  readonly regex?: string;
  readonly mode?: string;
  readonly comment?: string;
  /** Always true: the service must not change what Rampart manages as its signatures evolve. */
  readonly variativity_disabled: boolean;
}

export interface ApiIpRule {
  readonly id: number;
  readonly clientid: number;
  readonly list: string;
  readonly rule_type: string;
  readonly subnet?: string | null;
  readonly source_values?: readonly string[] | null;
  readonly country?: string | null;
  readonly proxy_type?: string | null;
  readonly datacenter?: string | null;
  readonly pools?: readonly number[] | null;
  readonly expired_at?: number | string | null;
  readonly reason?: string | null;
}

export interface ApiIpRuleCreate {
  readonly clientid: number;
  readonly ip_rule: {
    readonly list: string;
    readonly rule_type: string;
    readonly subnet?: string;
    readonly source_values?: readonly string[];
    readonly pools: readonly number[];
    readonly expired_at: number;
    readonly reason?: string;
  };
  readonly force: boolean;
}
