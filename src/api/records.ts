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
  readonly regex_id?: number | null;
  readonly comment?: string | null;
  /** Rules the service made and keeps itself (e.g. an account's default mode). */
  readonly system?: boolean | null;
  /** A kind's own fields by API name (`attack_type`, `mode`, `rate`, ...): read through the registry. */
  readonly [field: string]: unknown;
}

/** The create body: the common fields, and the kind's own fields by API name (`attack_type`, `rate`, ...). */
export interface ApiHintCreate {
  readonly clientid: number;
  readonly type: string;
  readonly action: readonly { point: readonly (string | number)[]; type: string; value?: string }[];
  readonly validated: boolean;
  readonly point?: readonly (readonly (string | number)[])[];
  readonly comment?: string;
  /** Always true: the service must not change what Rampart manages as its signatures evolve. */
  readonly variativity_disabled: boolean;
  readonly [field: string]: unknown;
}

/**
 * `PUT /v3/hint/{id}`: the whole mutable surface (API names): the five fields
 * every rule has, the comment with a fresh mark, and every field the kind's
 * update takes.
 */
export interface ApiHintUpdate {
  readonly variativity_disabled: boolean;
  readonly comment: string;
  readonly title: string;
  readonly active: boolean;
  readonly set: string;
  readonly [field: string]: unknown;
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

/** An application of a client (`POST /v1/objects/pool`); the service's client skips one without an id or deleted. */
export interface ApiApplication {
  readonly id: number | null;
  readonly clientid: number;
  readonly name: string;
  readonly deleted: boolean;
}

/**
 * A group of the successor IP-list API (`/v1/blocklist/clients/{C}/groups`):
 * one subnet, or countries, datacenters or proxy types held under one id.
 */
export interface ApiIpGroup {
  readonly id: number;
  readonly client_id: number;
  readonly rule_type: string;
  readonly list: string;
  readonly values: readonly string[];
  readonly application_ids?: readonly number[] | null;
  readonly expired_at?: number | null;
  readonly reason?: string | null;
  readonly created_at?: number | null;
  readonly status?: string | null;
}

/** `POST /v1/blocklist/clients/{C}/access_rules`: every key present, as the service's clients send it. */
export interface ApiAccessRulesCreate {
  readonly list: string;
  readonly force: boolean;
  readonly reason: string;
  readonly application_ids: readonly number[];
  readonly expired_at: number;
  readonly rules: readonly { readonly rules_type: string; readonly values: readonly string[] }[];
}
