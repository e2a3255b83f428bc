/**
 * Where each proposed rule goes and what it is: the policy file that declares
 * its client and application (a new file when none does), a readable name
 * unique in that file, and whether it is new, already declared there or
 * elsewhere, or already held by a live rule Rampart does not manage.
 */
import { stringify } from '../yaml-library.js';
import { conditionKey, fieldValues, ruleKey, type Condition, type DesiredRule, type LiveRule, type Point, type Rule } from '../model/rule.js';
import { loadPolicyTexts } from '../policy/validate.js';
import type { ProposedRule } from './propose.js';

/** A policy file's text and the client and applications it declares. */
export interface PolicyDocument {
  readonly file: string;
  readonly text: string;
  readonly client?: number;
  /** Application ids, or `all`. */
  readonly applications?: readonly number[] | 'all';
  /** Rule names in the file. */
  readonly names: ReadonlySet<string>;
}

export type Placement =
  | { readonly status: 'new' }
  /** `coveredBy`: a declared rule with a broader scope (fewer conditions, all of them the proposal's) already does it. */
  | { readonly status: 'declared'; readonly where: string; readonly coveredBy?: string }
  | { readonly status: 'unmanaged'; readonly id: number; readonly owner?: string };

export interface PlacedRule {
  readonly proposal: ProposedRule;
  readonly file: string;
  /** The file does not exist yet: it is written whole. */
  readonly newFile: boolean;
  readonly name: string;
  /** The rule as it is written in the file (without `name`). */
  readonly written: Readonly<Record<string, unknown>>;
  readonly placement: Placement;
}

/** The YAML of a proposed rule, two-level points and `when` as everywhere. */
export function writtenRule(proposal: ProposedRule): Record<string, unknown> {
  const pointYaml = (point: readonly Point[]) => point.map((element) => [...element]);
  return {
    type: proposal.type,
    [proposal.field]: proposal.value,
    point: pointYaml(proposal.group.point),
    when: readingOrder(proposal.group.scope).map((c) => (c.type === 'absent' ? { point: [...c.point], absent: true } : { point: [...c.point], [c.type]: c.value ?? '' })),
  };
}

/** Host, path segments, action name and extension, the closing absent segment: the order a person reads a URL in. */
function readingOrder(scope: readonly Condition[]): Condition[] {
  const rank = (c: Condition) => {
    const [element, index] = c.point;
    if (element === 'header') return [0, 0];
    if (element === 'path') return [c.type === 'absent' ? 4 : 1, Number(index)];
    return [element === 'action_name' ? 2 : element === 'action_ext' ? 3 : 5, 0];
  };
  return [...scope].sort((a, b) => {
    const [ra, ia] = rank(a);
    const [rb, ib] = rank(b);
    return (ra ?? 0) - (rb ?? 0) || (ia ?? 0) - (ib ?? 0);
  });
}

/** The file for a client and application: the one declaring both that holds tuning rules, else the first; `all` for the default application. */
export function fileFor(documents: readonly PolicyDocument[], client: number, application: number): PolicyDocument | undefined {
  const declares = (d: PolicyDocument) => d.client === client && (application > 0
    ? Array.isArray(d.applications) && d.applications.length === 1 && d.applications[0] === application
    : d.applications === 'all');
  const candidates = documents.filter(declares);
  return candidates.find((d) => /type:\s*disable_(stamp|attack_type)/.test(d.text)) ?? candidates[0];
}

/** `tuning-10042-app-7.yaml` or `tuning-10042-default.yaml`. */
export function newFileName(client: number, application: number): string {
  return `tuning-${client}-${application > 0 ? `app-${application}` : 'default'}.yaml`;
}

/** `stamp-7730-search` or `sqli-search-q`: what it stops, where; readable, and unique within `taken`. */
export function ruleName(proposal: ProposedRule, taken: Set<string>): string {
  const where = [...proposal.group.path.split(/[/.]/), ...lastKey(proposal.group.point)]
    .filter((part) => part !== '' && part !== '[multiple]').join('-').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
  const base = `${proposal.field === 'stamp' ? `stamp-${proposal.value}` : `${proposal.value}`}-${where || 'root'}`.slice(0, 100);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

function lastKey(point: readonly Point[]): string[] {
  const last = point[point.length - 1];
  return last && last.length > 1 ? [String(last[1])] : [];
}

/** The rule as Rampart would compile it in `file`, for comparing with what is declared and what is live. */
export function compiled(written: Readonly<Record<string, unknown>>, client: number, application: number): DesiredRule | undefined {
  const text = stringify({ version: 1, client, application: application > 0 ? application : 'all', rules: [{ name: 'proposal', ...written }] });
  return loadPolicyTexts([{ file: 'proposal.yaml', text }]).desired?.rules[0];
}

/**
 * Declared already (by identity, in any file, or by a declared rule whose
 * broader scope covers it), held by a live unmanaged rule (the same, or
 * broader), or new.
 */
export function placementOf(rule: DesiredRule, declared: readonly DesiredRule[], live: readonly LiveRule[], owner: string): Placement {
  const key = ruleKey(rule);
  const twin = declared.find((d) => ruleKey(d) === key);
  if (twin) return { status: 'declared', where: `${twin.source.file}:${twin.source.line}` };
  const broader = declared.find((d) => covers(d, rule));
  if (broader) return { status: 'declared', where: `${broader.source.file}:${broader.source.line}`, coveredBy: broader.source.name };
  const held = live.find((l) => (ruleKey(l) === key || covers(l, rule)) && l.owner !== owner);
  if (held) return { status: 'unmanaged', id: held.id, ...(held.owner !== undefined ? { owner: held.owner } : {}) };
  return { status: 'new' };
}

/**
 * Whether `existing` already does what `proposal` would: the same kind, the
 * same values at the same point, and a scope that holds a subset of the
 * proposal's conditions (fewer conditions match more requests).
 */
function covers(existing: Rule, proposal: Rule): boolean {
  if (existing.client !== proposal.client || existing.kind !== proposal.kind) return false;
  if (existing.conditions.length >= proposal.conditions.length) return false;
  if (JSON.stringify(existing.point) !== JSON.stringify(proposal.point)) return false;
  if (JSON.stringify(fieldValues(existing)) !== JSON.stringify(fieldValues(proposal))) return false;
  const conditions = new Set(proposal.conditions.map(conditionKey));
  return existing.conditions.every((condition) => conditions.has(conditionKey(condition)));
}
