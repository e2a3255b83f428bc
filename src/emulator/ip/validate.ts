/** Validation of `POST /v4/ip_rules`: list, type, values, pools, expiry. */
import {
  DATACENTERS, IP_LISTS, IP_RULE_TYPES, NEVER_EXPIRES, PROXY_TYPES, type IpListName, type IpRuleType,
} from './vocabulary.js';
import { invalid } from '../envelope.js';
import { isNonNegativeInt, optionalBool, oneOf, requirePositiveInt, requireRecord, requireString } from '../validate.js';
import { COUNTRY_CODES } from './countries.js';
import { normalizeSubnet } from './subnet.js';

export interface IpRuleDraft {
  clientid: number;
  list: IpListName;
  rule_type: IpRuleType;
  /** Normalized values, duplicates dropped: one CIDR for ip_range, else source_values. */
  values: string[];
  /** Sorted, duplicates dropped: existence compares pools as a set. */
  pools: number[];
  expired_at: number;
  reason: string | null;
  force: boolean;
}

/** A country, proxy type or datacenter as the service stores it, or undefined when it is not one. */
export const SOURCE_CHECKS: Readonly<Record<Exclude<IpRuleType, 'ip_range'>, (v: string) => string | undefined>> = {
  country: (v) => (COUNTRY_CODES.has(v.toUpperCase()) ? v.toUpperCase() : undefined),
  proxy_type: (v) => ((PROXY_TYPES as readonly string[]).includes(v.toUpperCase()) ? v.toUpperCase() : undefined),
  datacenter: (v) => ((DATACENTERS as readonly string[]).includes(v.toLowerCase()) ? v.toLowerCase() : undefined),
};

export function validateIpRuleCreate(input: unknown, nowSeconds: number): IpRuleDraft {
  const body = requireRecord(input, 'body');
  const clientid = requirePositiveInt(body.clientid, 'clientid');
  const rule = requireRecord(body.ip_rule, 'ip_rule');
  const list = oneOf(rule.list, IP_LISTS, ['ip_rule', 'list']);
  const ruleType = oneOf(rule.rule_type, IP_RULE_TYPES, ['ip_rule', 'rule_type']);
  const values = ruleType === 'ip_range' ? [subnetValue(rule.subnet)] : sourceValues(ruleType, rule.source_values);
  const reasonValue = rule.reason ?? body.reason;
  if (reasonValue !== undefined && reasonValue !== null && typeof reasonValue !== 'string') {
    throw invalid(['ip_rule', 'reason'], 'must be a string');
  }
  return {
    clientid,
    list,
    rule_type: ruleType,
    values,
    pools: pools(rule.pools),
    expired_at: expiry(rule.expired_at, nowSeconds),
    reason: typeof reasonValue === 'string' ? reasonValue : null,
    force: optionalBool(body.force, 'force', false),
  };
}

function subnetValue(value: unknown): string {
  const text = requireString(value, ['ip_rule', 'subnet']);
  const result = normalizeSubnet(text);
  if ('error' in result) throw invalid(['ip_rule', 'subnet'], result.error);
  return result.cidr;
}

function sourceValues(ruleType: Exclude<IpRuleType, 'ip_range'>, value: unknown): string[] {
  const path = ['ip_rule', 'source_values'];
  if (!Array.isArray(value) || value.length === 0) throw invalid(path, "can't be blank");
  const out: string[] = [];
  for (const item of value) {
    const normalized = typeof item === 'string' ? SOURCE_CHECKS[ruleType](item) : undefined;
    if (normalized === undefined) throw invalid(path, `${JSON.stringify(item)} is not a valid ${ruleType}`);
    if (!out.includes(normalized)) out.push(normalized);
  }
  return out;
}

function pools(value: unknown): number[] {
  const path = ['ip_rule', 'pools'];
  if (!Array.isArray(value) || value.length === 0) throw invalid(path, "can't be blank");
  if (!value.every(isNonNegativeInt)) throw invalid(path, 'must be non-negative integers');
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

/** A number or a quoted number (examples send both), in the future, at most "forever". */
function expiry(value: unknown, nowSeconds: number): number {
  const path = ['ip_rule', 'expired_at'];
  if (value === undefined || value === null || value === '') throw invalid(path, "can't be blank");
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) throw invalid(path, 'must be a Unix timestamp');
  if (number > NEVER_EXPIRES) throw invalid(path, `must be at most ${NEVER_EXPIRES}`);
  if (number <= nowSeconds) throw invalid(path, 'must be in the future');
  return number;
}
