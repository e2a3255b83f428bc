import { NEVER_EXPIRES, type DesiredIpEntry, type IpListName, type IpRuleType, type LiveIpEntry } from '../../../src/model/ip.js';
import { sortConditions, type Condition, type DesiredRule, type LiveRule, type Rule } from '../../../src/model/rule.js';
import type { Source } from '../../../src/model/source.js';
import type { FieldValue } from '../../../src/rules/field.js';
import type { DesiredState, LiveState } from '../../../src/model/state.js';

export const CLIENT = 10042;
export const OWNER = 'rampart';
export const FILE = 'policies/shop.yaml';

export function source(name: string, line = 1, file = FILE, col = 5): Source {
  return { file, line, col, name };
}

export function instance(app: number): Condition {
  return { point: ['instance'], type: 'equal', value: String(app) };
}

const adminPath: Condition = { point: ['path', 0], type: 'equal', value: 'admin' };

export type SampleKind = 'vpatch' | 'regex' | 'mode';
export const SAMPLE_KINDS: readonly SampleKind[] = ['vpatch', 'regex', 'mode'];

/** A rule of each of three kinds, for application 7 unless `app` says otherwise. */
export function ruleFields(kind: SampleKind, app: number | 'all' = 7, variant = ''): Rule {
  const conditions = sortConditions([...(app === 'all' ? [] : [instance(app)]), adminPath]);
  switch (kind) {
    case 'vpatch':
      return { client: CLIENT, kind, conditions, point: [['header', `HOST${variant}`]], fields: { attack: 'any' } };
    case 'regex':
      return {
        client: CLIENT, kind, conditions, point: [['header', 'USER-AGENT']],
        fields: { attack: 'scanner', regex: `.*curltool${variant}.*`, experimental: false },
      };
    default:
      return { client: CLIENT, kind, conditions, point: [], fields: { mode: variant ? 'monitoring' : 'block' } };
  }
}

/** The same rule with some of its kind's fields set. */
export function withFields<R extends Rule>(rule: R, fields: Readonly<Record<string, FieldValue>>): R {
  return { ...rule, fields: { ...rule.fields, ...fields } };
}

export function desiredRule(rule: Rule, name = 'r', line = 1, file = FILE): DesiredRule {
  return { ...rule, source: source(name, line, file) };
}

/** A live rule; owner `null` for an unmarked (console) rule. */
export function liveRule(rule: Rule, id: number, owner: string | null = OWNER): LiveRule {
  const { comment, ...rest } = rule;
  return {
    ...rest,
    ...(comment !== undefined ? { comment } : {}),
    id,
    ...(owner !== null ? { owner } : {}),
  };
}

export interface IpFields {
  client?: number;
  list?: IpListName;
  ruleType?: IpRuleType;
  pools?: number[];
  expiresAt?: number;
  reason?: string;
}

function ipBase(value: string, f: IpFields) {
  return {
    client: f.client ?? CLIENT,
    list: f.list ?? 'black',
    ruleType: f.ruleType ?? guessType(value),
    value,
    pools: f.pools ?? [7],
    expiresAt: f.expiresAt ?? NEVER_EXPIRES,
    ...(f.reason !== undefined ? { reason: f.reason } : {}),
  };
}

function guessType(value: string): IpRuleType {
  if (value.includes('/')) return 'ip_range';
  if (/^[A-Z]{2}$/.test(value)) return 'country';
  if (/^[A-Z]{3}$/.test(value)) return 'proxy_type';
  return 'datacenter';
}

export function desiredIp(value: string, f: IpFields = {}, line = 20, name = 'ip_lists.deny[0]'): DesiredIpEntry {
  return { ...ipBase(value, f), source: source(name, line) };
}

/** Several desired values declared on one policy line. */
export function desiredIps(values: string[], f: IpFields = {}, line = 20, name = 'ip_lists.deny[0]'): DesiredIpEntry[] {
  return values.map((v) => desiredIp(v, f, line, name));
}

/** One live API object holding `values` (a grouped object when more than one). */
export function liveObject(id: number, values: string[], f: IpFields = {}, owner: string | null = OWNER): LiveIpEntry[] {
  return values.map((v) => ({
    ...ipBase(v, f), id, objectSize: values.length, ...(owner !== null ? { owner } : {}),
  }));
}

export function desiredState(rules: DesiredRule[] = [], ipEntries: DesiredIpEntry[] = [], clients = [CLIENT]): DesiredState {
  return { clients, rules, ipEntries };
}

export function liveState(rules: LiveRule[] = [], ipEntries: LiveIpEntry[] = [], clients = [CLIENT]): LiveState {
  return { clients, rules, ipEntries };
}

/** Deterministic shuffle (a small LCG), for order-independence tests. */
export function shuffled<T>(items: readonly T[], seed = 1): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
