/**
 * Selected live objects → policy file texts, one per scope. Pure and
 * byte-stable: the same objects give the same files whatever their ids or
 * listing order.
 */
import type { Node } from 'yaml';
import { Document } from '../yaml-library.js';
import { IP_RULE_TYPES, IP_VALUE_KEYS, NEVER_EXPIRES, POLICY_LIST_NAMES, POLICY_LISTS, type IpRuleType, type LiveIpEntry } from '../model/ip.js';
import { fieldValues, kindOf, type Condition, type LiveRule } from '../model/rule.js';
import { compareStrings } from '../model/compare.js';
import { sameValue } from '../rules/field.js';
import { KIND_NAMES } from '../rules/registry.js';
import { cidrRange } from '../policy/address.js';
import { OWNER_MARK_PATTERN } from '../policy/document.js';
import { formatSeconds } from '../policy/expiry.js';
import { formatPolicyText } from '../fmt/canonical.js';
import { assignNames, contentHash, withMarkedNames } from './names.js';
import { EXPORT_HEADER, fileNameOf, type ExportFile, type PlacedIpEntry, type PlacedRule, type Scope } from './types.js';

export interface RenderOptions {
  readonly client: number;
  readonly schemaRef: string;
}

interface FileContent {
  scope: Scope;
  rules: LiveRule[];
  ipEntries: LiveIpEntry[];
}

/** Rules by kind in the registry's order, so an export reads like the reference. */
const KIND_ORDER = new Map<string, number>(KIND_NAMES.map((name, i) => [name, i]));
/** Longer `ips` lists are written one address per line. */
const FLOW_IPS_MAX = 8;

export function renderFiles(rules: readonly PlacedRule[], ipEntries: readonly PlacedIpEntry[], options: RenderOptions): ExportFile[] {
  const files = new Map<string, FileContent>();
  const content = (scope: Scope): FileContent => {
    const name = fileNameOf(scope);
    let file = files.get(name);
    if (!file) {
      file = { scope, rules: [], ipEntries: [] };
      files.set(name, file);
    }
    return file;
  };
  for (const placed of rules) content(placed.scope).rules.push(placed.live);
  for (const placed of ipEntries) content(placed.scope).ipEntries.push(placed.live);
  return [...files.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([name, file]) => ({
      name,
      // Already in `rampart fmt`'s form: `fmt --check` on a fresh export finds nothing.
      text: inFmtForm(renderFile(file, options)),
      rules: file.rules.length,
      ipValues: file.ipEntries.length,
    }));
}

function inFmtForm(text: string): string {
  const formatted = formatPolicyText(text);
  return formatted.ok ? formatted.text : text;
}

function renderFile(file: FileContent, options: RenderOptions): string {
  const doc = new Document();
  const flow = (value: unknown): Node => doc.createNode(value, { flow: true }) as Node;
  const { scope } = file;

  const top: Record<string, unknown> = {
    version: 1,
    client: options.client,
    application: scope.kind === 'all' ? 'all' : scope.apps.length === 1 ? scope.apps[0] : flow(scope.apps),
    description: `${describeScope(scope)} (exported)`,
  };

  // Rules in a stable order: by type, then content (names derive from content too).
  const sorted = [...file.rules]
    .map((rule) => ({ rule, hash: contentHash(rule) }))
    .sort((a, b) => (KIND_ORDER.get(a.rule.kind) ?? 0) - (KIND_ORDER.get(b.rule.kind) ?? 0) || compareStrings(a.hash, b.hash) || compareStrings(a.rule.comment ?? '', b.rule.comment ?? ''))
    .map((x) => x.rule);
  const modeOnly = sorted.filter((r) => r.kind === 'mode' && userConditions(r).length === 0 && !cleanText(r.comment));
  const shorthand = modeOnly.length === 1 && modeOnly[0]?.kind === 'mode' ? modeOnly[0] : undefined;
  if (shorthand) top.mode = shorthand.fields.mode;
  const listed = sorted.filter((r) => r !== shorthand);
  const names = withMarkedNames(listed, assignNames(listed.map((rule) => ({ ...rule, comment: cleanText(rule.comment) }))));
  if (listed.length > 0) {
    top.rules = listed.map((rule, i) => {
      const node = doc.createNode(ruleSpec(rule, names[i] as string, flow)) as Node;
      if (i > 0) node.spaceBefore = true;
      return node;
    });
  }

  const ipLists: Record<string, unknown> = {};
  for (const label of POLICY_LISTS) {
    const entries = file.ipEntries.filter((e) => e.list === POLICY_LIST_NAMES[label]);
    if (entries.length > 0) ipLists[label] = ipEntrySpecs(entries, flow);
  }
  if (Object.keys(ipLists).length > 0) top.ip_lists = ipLists;

  const root = doc.createNode(top);
  // A blank line before the `mode`/`rules`/`ip_lists` sections.
  for (const pair of root.items) {
    const key = pair.key as Node & { value?: unknown };
    if (key.value === 'mode' || key.value === 'rules' || key.value === 'ip_lists') key.spaceBefore = true;
  }
  doc.contents = root;
  doc.commentBefore = [
    ` yaml-language-server: $schema=${options.schemaRef}`,
    ` ${EXPORT_HEADER} --client ${options.client}\` from the live account:`,
    ` ${describeScope(scope).toLowerCase()}. Rename rules freely; names are not sent to the API.`,
  ].join('\n');
  return doc.toString({ flowCollectionPadding: false, lineWidth: 120 });
}

function describeScope(scope: Scope): string {
  if (scope.kind === 'all') return 'Every application of the account';
  if (scope.apps.length === 1) return `Application ${scope.apps[0]}`;
  return `Applications ${scope.apps.join(', ')}`;
}

/** A comment or reason as the policy can hold it: not empty, no owner mark. */
export function cleanText(text: string | undefined): string | undefined {
  if (text === undefined || text === '' || OWNER_MARK_PATTERN.test(text)) return undefined;
  return text;
}

function userConditions(rule: LiveRule): Condition[] {
  return rule.conditions.filter((c) => c.point[0] !== 'instance');
}

/**
 * A live rule as written: its kind's fields where they differ from what a
 * rule that leaves them out gets (so the file stays short and plans empty),
 * point, conditions.
 */
function ruleSpec(rule: LiveRule, name: string, flow: (value: unknown) => Node): Record<string, unknown> {
  const spec: Record<string, unknown> = { name, type: rule.kind };
  const values = fieldValues(rule);
  for (const field of kindOf(rule).fields) {
    const value = values[field.name];
    const leftOut = field.absentIs ?? field.serviceDefault;
    if (value === undefined || (!field.required && leftOut !== undefined && sameValue(value, leftOut))) continue;
    const written = field.written(value as never);
    spec[field.name] = typeof written === 'object' && written !== null ? flow(written) : written;
  }
  if (rule.point.length > 0) spec.point = flow(rule.point);
  const when = userConditions(rule);
  if (when.length > 0) spec.when = when.map((c) => flow(conditionSpec(c)));
  const comment = cleanText(rule.comment);
  if (comment !== undefined) spec.comment = comment;
  return spec;
}

function conditionSpec(condition: Condition): Record<string, unknown> {
  if (condition.type === 'absent') return { point: condition.point, absent: true };
  return { point: condition.point, [condition.type]: condition.value ?? '' };
}

/** Entries sharing kind, expiry and reason become one entry listing all their values. */
function ipEntrySpecs(entries: readonly LiveIpEntry[], flow: (value: unknown) => Node): unknown[] {
  const groups = new Map<string, { ruleType: IpRuleType; expiresAt: number; reason?: string; values: string[] }>();
  for (const entry of entries) {
    const reason = cleanText(entry.reason);
    const key = JSON.stringify([IP_RULE_TYPES.indexOf(entry.ruleType), entry.expiresAt, reason ?? null]);
    const group = groups.get(key) ?? { ruleType: entry.ruleType, expiresAt: entry.expiresAt, ...(reason !== undefined ? { reason } : {}), values: [] };
    group.values.push(entry.value);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        IP_RULE_TYPES.indexOf(a.ruleType) - IP_RULE_TYPES.indexOf(b.ruleType) ||
        a.expiresAt - b.expiresAt ||
        compareStrings(a.reason ?? '', b.reason ?? ''),
    )
    .map((group) => {
      const values = group.ruleType === 'ip_range' ? sortAddresses(group.values).map(shortAddress) : [...group.values].sort(compareStrings);
      const spec: Record<string, unknown> = {
        [IP_VALUE_KEYS[group.ruleType]]: group.ruleType === 'ip_range' && values.length > FLOW_IPS_MAX ? values : flow(values),
      };
      if (group.reason !== undefined) spec.reason = group.reason;
      if (group.expiresAt !== NEVER_EXPIRES) spec.expires = formatSeconds(group.expiresAt);
      return spec;
    });
}

/** IPv4 before IPv6, then by address, wider subnets first. */
function sortAddresses(values: readonly string[]): string[] {
  return values
    .map((value) => ({ value, range: safeRange(value) }))
    .sort(
      (a, b) =>
        compareStrings(a.range.family, b.range.family) ||
        (a.range.first < b.range.first ? -1 : a.range.first > b.range.first ? 1 : 0) ||
        (a.range.last > b.range.last ? -1 : a.range.last < b.range.last ? 1 : 0),
    )
    .map((x) => x.value);
}

function safeRange(value: string): { family: string; first: bigint; last: bigint } {
  try {
    return cidrRange(value);
  } catch {
    // Not an address: the round-trip check leaves it out; sort it last meanwhile.
    return { family: '~', first: 0n, last: 0n };
  }
}

/** `1.2.3.4/32` → `1.2.3.4`: a single address reads better without its mask. */
function shortAddress(cidr: string): string {
  if (cidr.endsWith('/32') && !cidr.includes(':')) return cidr.slice(0, -3);
  if (cidr.endsWith('/128')) return cidr.slice(0, -4);
  return cidr;
}
