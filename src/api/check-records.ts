/**
 * Listed records checked before they are trusted: a record of the wrong shape
 * fails the whole listing with an ApiProtocolError (never a TypeError deep in
 * the normalizer, never a plan from a listing we could not read). Rule types
 * Rampart does not manage are only checked for what filtering them needs.
 */
import { ApiProtocolError } from '../errors.js';
import { kindOfApiType } from '../rules/registry.js';
import type { ApiHint, ApiIpGroup, ApiIpRule } from './records.js';

type Problem = string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value);
const isAbsent = (value: unknown): boolean => value === undefined || value === null;
const optionalString = (value: unknown): boolean => isAbsent(value) || typeof value === 'string';
const isPointElement = (value: unknown): boolean => typeof value === 'string' || typeof value === 'number';
const isPoint = (value: unknown): boolean => Array.isArray(value) && value.every(isPointElement);

function hintProblem(hint: unknown): Problem {
  if (!isObject(hint)) return 'a rule that is not an object';
  if (!isId(hint.id) || !isId(hint.clientid) || typeof hint.type !== 'string') return 'a rule without a numeric id and clientid and a type';
  if (!isAbsent(hint.system) && typeof hint.system !== 'boolean') return `rule ${hint.id}: system is not a boolean`;
  const found = hint.system === true ? undefined : kindOfApiType(hint.type);
  if (!found) return undefined;
  if (!isAbsent(hint.action)) {
    if (!Array.isArray(hint.action)) return `rule ${hint.id}: action is not a list`;
    for (const condition of hint.action as unknown[]) {
      if (!isObject(condition) || !isPoint(condition.point) || typeof condition.type !== 'string') {
        return `rule ${hint.id}: a condition without a point list and a type`;
      }
      if (!isAbsent(condition.value) && !isPointElement(condition.value)) return `rule ${hint.id}: a condition value is not a string`;
    }
  }
  if (!isAbsent(hint.point) && !(Array.isArray(hint.point) && hint.point.every((p) => isPointElement(p) || isPoint(p)))) {
    return `rule ${hint.id}: point is not a list of point elements`;
  }
  if (!optionalString(hint.comment)) return `rule ${hint.id}: comment is not a string`;
  if (!isAbsent(hint.regex_id) && !isId(hint.regex_id)) return `rule ${hint.id}: regex_id is not an id`;
  for (const field of found.kind.fields) {
    const value = hint[field.api];
    if (!field.viaType && !field.local && !isAbsent(value) && field.fromApi(value) === undefined) {
      return `rule ${hint.id}: ${field.api} is not a valid ${found.kind.yaml} ${field.name}`;
    }
  }
  return undefined;
}

function ipRuleProblem(object: unknown): Problem {
  if (!isObject(object)) return 'an IP-list object that is not an object';
  if (!isId(object.id) || !isId(object.clientid) || typeof object.list !== 'string' || typeof object.rule_type !== 'string') {
    return 'an IP-list object without a numeric id and clientid, a list and a rule_type';
  }
  const id = String(object.id);
  for (const field of ['subnet', 'country', 'proxy_type', 'datacenter', 'reason'] as const) {
    if (!optionalString(object[field])) return `object ${id}: ${field} is not a string`;
  }
  if (!isAbsent(object.source_values) && !(Array.isArray(object.source_values) && object.source_values.every((v) => typeof v === 'string'))) {
    return `object ${id}: source_values is not a list of strings`;
  }
  if (!isAbsent(object.pools) && !(Array.isArray(object.pools) && object.pools.every(isId))) {
    return `object ${id}: pools is not a list of application ids`;
  }
  const expiry = object.expired_at;
  if (!isAbsent(expiry) && !((typeof expiry === 'number' || (typeof expiry === 'string' && expiry.trim() !== '')) && Number.isFinite(Number(expiry)))) {
    return `object ${id}: expired_at is not a number`;
  }
  return undefined;
}

function checkAll<T>(records: readonly unknown[], route: string, problemOf: (record: unknown) => Problem): T[] {
  for (const record of records) {
    const problem = problemOf(record);
    if (problem) throw new ApiProtocolError(`${route} listed ${problem}; nothing is planned from a listing that cannot be read`, { route });
  }
  return records as T[];
}

export const checkHints = (records: readonly unknown[], route: string): ApiHint[] => checkAll<ApiHint>(records, route, hintProblem);
export const checkIpRules = (records: readonly unknown[], route: string): ApiIpRule[] => checkAll<ApiIpRule>(records, route, ipRuleProblem);

function ipGroupProblem(group: unknown): Problem {
  if (!isObject(group)) return 'a group that is not an object';
  if (!isId(group.id) || !isId(group.client_id) || typeof group.list !== 'string' || typeof group.rule_type !== 'string') {
    return 'a group without a numeric id and client_id, a list and a rule_type';
  }
  if (!Array.isArray(group.values) || !group.values.every((value) => typeof value === 'string')) return `group ${group.id}: values is not a list of strings`;
  if (!isAbsent(group.application_ids) && !(Array.isArray(group.application_ids) && group.application_ids.every(isId))) return `group ${group.id}: application_ids is not a list of ids`;
  if (!isAbsent(group.expired_at) && typeof group.expired_at !== 'number') return `group ${group.id}: expired_at is not a number`;
  if (!optionalString(group.reason)) return `group ${group.id}: reason is not a string`;
  return undefined;
}

/** The successor IP-list API's groups, checked. */
export const checkIpGroups = (groups: readonly unknown[], route: string): ApiIpGroup[] => checkAll<ApiIpGroup>(groups, route, ipGroupProblem);
