/**
 * A policy file in its canonical form, for `rampart fmt`. Pure: text in, text
 * out. Edits the parsed document (the `yaml` library's Document API), so
 * comments, blank lines, anchors and the order of rules stay as written:
 *
 * - IP-list values are canonical and sorted: addresses as the service stores
 *   them (IPv6 compressed, host bits cleared, no `/32` or `/128` on a single
 *   address), countries and proxy types upper-case, datacenters lower-case;
 *   `application` id lists sorted;
 * - a plain scalar another YAML reader would take for a boolean, a null or a
 *   number (`NO`, `on`, `~`, `0755`, `1:30`) is quoted;
 * - a rule key an earlier release wrote takes its new name (graphql's
 *   `max_alias_size_kb` is `max_aliases`), its value and comments kept;
 * - the layout is the library's, with `{ a: b }` flow maps and `[a, b]` flow
 *   sequences, lines never folded.
 * A value that does not check (an unknown country) is left as written:
 * `validate` says what is wrong with it.
 */
import type * as Yaml from 'yaml';
import { isMap, isScalar, isSeq, parseDocument, Scalar } from '../yaml-library.js';
import { canonicalCidr, cidrBounds, parseCidr } from '../model/cidr.js';
import { padFlowMaps } from '../policy/flow-layout.js';
import { checkCountry, checkDatacenter, checkProxy, type ValueCheck } from '../policy/sources.js';
import { POLICY_LISTS, type IpValueKey } from '../model/ip.js';
import { isKindName, ruleKind } from '../rules/registry.js';

export type FormatResult =
  | { readonly ok: true; readonly text: string; readonly changed: boolean }
  | { readonly ok: false; readonly line: number; readonly col: number; readonly message: string };

const VALUE_KINDS: Readonly<Record<IpValueKey, (value: string) => string>> = {
  ips: canonicalAddress,
  countries: (value: string) => checked(checkCountry(value), value),
  proxies: (value: string) => checked(checkProxy(value), value),
  datacenters: (value: string) => checked(checkDatacenter(value), value),
};

/** Plain scalars YAML 1.1 readers (and people) take for something other than a string. */
const AMBIGUOUS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|[-+]?0[0-7_]+|[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.\d*)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

export function formatPolicyText(text: string): FormatResult {
  const doc = parseDocument(text, { keepSourceTokens: false });
  const error = doc.errors[0];
  if (error) {
    const [line, col] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [1, 1];
    return { ok: false, line, col, message: error.message.split('\n')[0] ?? error.message };
  }
  canonicalizeIpLists(doc);
  renameOldKeys(doc);
  sortApplications(doc);
  quoteAmbiguous(doc.contents);
  const out = padFlowMaps(doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
  return { ok: true, text: out, changed: out !== text };
}

function canonicalizeIpLists(doc: Yaml.Document): void {
  const lists = doc.get('ip_lists', true);
  if (!isMap(lists)) return;
  for (const list of POLICY_LISTS) {
    const entries = lists.get(list, true);
    if (!isSeq(entries)) continue;
    for (const entry of entries.items) {
      if (!isMap(entry)) continue;
      for (const [kind, canonical] of Object.entries(VALUE_KINDS)) {
        const values = entry.get(kind, true);
        if (!isSeq(values)) continue;
        for (const item of values.items) {
          if (isScalar(item) && typeof item.value === 'string') item.value = canonical(item.value);
        }
        values.items.sort(kind === 'ips' ? compareAddressNodes : compareTextNodes);
      }
    }
  }
}

/** Renamed rule keys (RuleKindSpec.renamed) under their new name, where the new one is not written too (validate says so). */
function renameOldKeys(doc: Yaml.Document): void {
  const rules = doc.get('rules', true);
  if (!isSeq(rules)) return;
  for (const rule of rules.items) {
    if (!isMap(rule)) continue;
    const type = rule.get('type');
    if (typeof type !== 'string' || !isKindName(type)) continue;
    for (const [old, name] of Object.entries(ruleKind(type).renamed)) {
      const pair = rule.items.find((item) => isScalar(item.key) && item.key.value === old);
      if (pair && !rule.has(name)) (pair.key as Yaml.Scalar).value = name;
    }
  }
}

function sortApplications(doc: Yaml.Document): void {
  const applications = doc.get('application', true);
  if (!isSeq(applications) || !applications.items.every((item) => isScalar(item) && typeof item.value === 'number')) return;
  applications.items.sort((a, b) => Number((a as Yaml.Scalar).value) - Number((b as Yaml.Scalar).value));
}

function quoteAmbiguous(node: unknown): void {
  if (isScalar(node)) {
    if (typeof node.value === 'string' && (node.type === Scalar.PLAIN || node.type === undefined) && AMBIGUOUS.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    return;
  }
  if (isMap(node)) {
    for (const pair of node.items) {
      quoteAmbiguous(pair.key);
      quoteAmbiguous(pair.value);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) quoteAmbiguous(item);
  }
}

/** As the service stores it, without the mask of a single address. */
function canonicalAddress(value: string): string {
  const parsed = parseCidr(value);
  if (!parsed) return value;
  const single = (parsed.family === 'ipv4' && parsed.prefix === 32) || (parsed.family === 'ipv6' && parsed.prefix === 128);
  return single ? parsed.cidr.slice(0, parsed.cidr.lastIndexOf('/')) : parsed.cidr;
}

function checked(check: ValueCheck, value: string): string {
  return check.ok ? check.value : value;
}

function textOf(node: unknown): string {
  return isScalar(node) ? String(node.value) : '';
}

function compareTextNodes(a: unknown, b: unknown): number {
  const [x, y] = [textOf(a), textOf(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** IPv4 before IPv6, then by first address, then the wider network first; what does not parse goes last. */
function compareAddressNodes(a: unknown, b: unknown): number {
  const key = (node: unknown) => {
    const cidr = parseCidr(textOf(node)) ? canonicalCidr(textOf(node)) : undefined;
    if (!cidr) return undefined;
    const bounds = cidrBounds(cidr);
    return { family: bounds.family === 'ipv4' ? 0 : 1, first: bounds.first, size: bounds.last - bounds.first };
  };
  const [x, y] = [key(a), key(b)];
  if (!x || !y) return x ? -1 : y ? 1 : compareTextNodes(a, b);
  if (x.family !== y.family) return x.family - y.family;
  if (x.first !== y.first) return x.first < y.first ? -1 : 1;
  return x.size === y.size ? 0 : x.size > y.size ? -1 : 1;
}

