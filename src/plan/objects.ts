import { type IpEntry, type LiveIpEntry } from '../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../model/application.js';
import { apiTypeOfRule, fieldValues, sortConditions, type Rule } from '../model/rule.js';
import type { FieldValue } from '../rules/field.js';
import type { Application, PlanIpObject, PlanRule } from './types.js';

/** Model objects in their plan-document form (codec.ts), and the applications a change concerns. */

export function toPlanRule(rule: Rule): PlanRule {
  const fields: Record<string, FieldValue> = {};
  for (const [name, value] of Object.entries(fieldValues(rule))) if (value !== undefined) fields[name] = value;
  return {
    type: rule.kind,
    api_type: apiTypeOfRule(rule),
    conditions: sortConditions(rule.conditions).map((c) => ({ point: c.point, match: c.type, value: c.value })),
    point: rule.point,
    fields,
    ...(rule.comment !== undefined && rule.comment !== '' ? { comment: rule.comment } : {}),
  };
}

/** The object several entries sharing one object's attributes make up. */
export function toPlanIpObject(
  first: Pick<IpEntry, 'list' | 'ruleType' | 'pools' | 'expiresAt' | 'reason'>,
  values: readonly string[]): PlanIpObject {
  return {
    list: first.list,
    rule_type: first.ruleType,
    pools: first.pools,
    expires_at: first.expiresAt,
    ...(first.reason !== undefined && first.reason !== '' ? { reason: first.reason } : {}),
    values,
  };
}

function applicationOfIds(ids: readonly number[]): Application {
  // Most objects name one application: no set, no sort.
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) return only === ALL_APPLICATIONS_POOL ? 'all' : only;
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0 || (unique.length === 1 && unique[0] === ALL_APPLICATIONS_POOL)) return 'all';
  if (unique.length === 1) return unique[0] as number;
  return unique;
}

/** From the rule's `[instance] equal "N"` conditions; none means account-wide. */
export function ruleApplication(rule: Rule): Application {
  const ids = rule.conditions
    .filter((c) => c.point.length === 1 && c.point[0] === 'instance' && c.value !== null)
    .map((c) => Number(c.value))
    .filter((n) => Number.isInteger(n));
  return applicationOfIds(ids);
}

export function poolsApplication(pools: readonly number[]): Application {
  return applicationOfIds(pools);
}

/** The applications of several objects together (a batched delete). */
export function unionApplication(entries: readonly LiveIpEntry[]): Application {
  return applicationOfIds(entries.flatMap((e) => e.pools));
}

/** A stable sort key for an application: account-wide first, then by id. */
export function applicationSortKey(app: Application): string {
  if (app === 'all') return '0';
  const ids = typeof app === 'number' ? [app] : app;
  return `1:${ids.map((n) => String(n).padStart(10, '0')).join(',')}`;
}

export function applicationLabel(app: Application): string {
  if (app === 'all') return 'all applications';
  if (typeof app === 'number') return `application ${app}`;
  return `applications ${app.map((n) => (n === ALL_APPLICATIONS_POOL ? 'all' : String(n))).join(', ')}`;
}
