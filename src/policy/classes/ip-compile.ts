/**
 * IP-list entries as written → one canonical DesiredIpEntry per value, with
 * pools from `application` and the expiry in Unix seconds. An entry whose
 * expiry has passed is checked but left out (the service would not keep it).
 */
import { IP_VALUE_KEYS, modelExpiry, NEVER_EXPIRES, readsAsNever, POLICY_LIST_NAMES, POLICY_LISTS, RULE_TYPE_OF_KEY, type DesiredIpEntry, type IpValueKey, type PolicyListName } from '../../model/ip.js';
import { ALL_APPLICATIONS_POOL } from '../../model/application.js';
import { checkAddress, WARN_BELOW_IPV4_PREFIX } from '../address.js';
import type { DocumentContext } from '../context.js';
import { OWNER_MARK_PATTERN, type IpEntrySpec, type PolicyDocument } from '../document.js';
import { formatSeconds, parseExpiry } from '../expiry.js';
import { isRecord } from '../schema-messages.js';
import type { Path } from '../source-map.js';
import { DeclaredIpValue, type IpDeclaration } from './declared-ip-value.js';
import { checkCountry, checkDatacenter, checkProxy, type ValueCheck } from '../sources.js';


export function compileIpEntries(doc: PolicyDocument, ctx: DocumentContext): DesiredIpEntry[] {
  const out: DesiredIpEntry[] = [];
  const lists = isRecord(doc.ip_lists) ? doc.ip_lists : {};
  for (const list of POLICY_LISTS) {
    const entries = lists[list];
    if (!Array.isArray(entries)) continue;
    (entries as readonly IpEntrySpec[]).forEach((entry, index) => {
      const path: Path = ['ip_lists', list, index];
      if (ctx.clean(path)) out.push(...compileEntry(entry, list, path, ctx));
    });
  }
  return out;
}

/** The keys of an entry's values; an entry has one. */
const VALUE_KEYS: readonly IpValueKey[] = Object.values(IP_VALUE_KEYS);

function compileEntry(entry: IpEntrySpec, list: PolicyListName, path: Path, ctx: DocumentContext): DesiredIpEntry[] {
  const { report } = ctx;
  // The kind found without making a list first: the JIT threw away its compiled code for this function at that list.
  const kind = VALUE_KEYS.find((key) => entry[key] !== undefined);
  if (kind === undefined || VALUE_KEYS.some((key) => key !== kind && entry[key] !== undefined)) {
    const kinds = VALUE_KEYS.filter((key) => entry[key] !== undefined);
    const found = kinds.length === 0 ? 'none' : kinds.join(', ');
    report.error('entry-kind', `an IP-list entry needs exactly one of ips, countries, proxies, datacenters (found: ${found}); split it into one entry per kind`, path);
    return [];
  }
  let ok = true;
  if (entry.reason !== undefined && OWNER_MARK_PATTERN.test(entry.reason)) {
    report.error('reserved-mark', 'reason must not contain "[managed-by:": Rampart writes that mark itself', [...path, 'reason']);
    ok = false;
  }
  const expiry = parseExpiry(entry.expires);
  if (!expiry.ok) {
    report.error('invalid-expiry', expiry.message, [...path, 'expires']);
    ok = false;
  }
  // One path for every value, its last element the value's index: a lookup reads it and keeps nothing
  // (a path made per value was a tenth of what a load of 50k values allocated).
  const at: (string | number)[] = [...path, kind, 0];
  const last = at.length - 1;
  const raws = entry[kind] ?? [];
  const values = new Array<string>(raws.length);
  for (let i = 0; i < raws.length; i++) {
    at[last] = i;
    const value = checkValue(kind, raws[i] as string, at, ctx);
    if (value === undefined) ok = false;
    else values[i] = value;
  }
  if (!ok || !expiry.ok) return [];
  ctx.expiries.push(expiry.seconds);
  if (expiry.seconds <= ctx.now) {
    report.warning('expired', `expired at ${formatSeconds(expiry.seconds)}: this entry will not be created`, [...path, 'expires']);
    return [];
  }
  const { client, applications } = ctx;
  if (client === undefined || applications === undefined) return [];
  const { intern } = ctx;
  const pools = applications === 'all' ? intern.pool(ALL_APPLICATIONS_POOL) : intern.numbers([...applications].sort((a, b) => a - b));
  const reason = intern.string(entry.reason);
  const listName = POLICY_LIST_NAMES[list];
  const ruleType = RULE_TYPE_OF_KEY[kind];
  if (expiry.seconds !== NEVER_EXPIRES && readsAsNever(expiry.seconds, ctx.now)) {
    report.warning('far-expiry', `expires ${formatSeconds(expiry.seconds)} is more than 50 years ahead: it is kept as never (the service's clients write "forever" as a far date), so write never`, [...path, 'expires']);
  }
  const declaration: IpDeclaration = {
    client, list: listName, ruleType, pools, expiresAt: modelExpiry(expiry.seconds, ctx.now), reason, file: ctx.file, path: [...path, kind],
  };
  // Every value is valid here, so its index is the one it is written at.
  const compiled = new Array<DesiredIpEntry>(values.length);
  for (let i = 0; i < values.length; i++) {
    at[last] = i;
    compiled[i] = new DeclaredIpValue(values[i] as string, declaration, i, report.position(at));
  }
  return compiled;
}

/** `at` is the caller's and changes after the call: the reporter places a diagnostic at once and keeps no path. */
function checkValue(kind: IpValueKey, raw: string, at: Path, ctx: DocumentContext): string | undefined {
  if (kind === 'ips') {
    const result = checkAddress(raw);
    if (!result.ok) {
      ctx.report.error(result.code, result.message, at);
      return undefined;
    }
    if (result.wide) {
      ctx.report.warning('wide-subnet', `"${raw}" is wider than /${WARN_BELOW_IPV4_PREFIX}: the service's former client refused such IPv4 subnets, so the service may too, and it covers ${2 ** (32 - Number(result.cidr.split('/')[1]))} addresses; split it if it is refused`, at);
    }
    if (result.hostBitsSet) {
      ctx.report.warning('host-bits', `"${raw}" has host bits set; it is read as ${result.cidr} (write that to silence this warning)`, at);
    }
    return result.cidr;
  }
  const check: ValueCheck = kind === 'countries' ? checkCountry(raw) : kind === 'proxies' ? checkProxy(raw) : checkDatacenter(raw);
  if (!check.ok) {
    const code = kind === 'countries' ? 'unknown-country' : kind === 'proxies' ? 'unknown-proxy' : 'unknown-datacenter';
    ctx.report.error(code, check.message, at);
    return undefined;
  }
  return check.value;
}
