/**
 * The plan as a reviewer reads it, shared by the text, markdown and github
 * renderers: one block per rule change, and IP values grouped per client,
 * application, list, type and attributes so a hundred addresses are one block.
 * A rule create that replaces owned rules shows the old rule's attributes
 * beside the new ones, and the replaced rule's delete is folded into it.
 */
import { InternalError } from '../../errors.js';
import type { DeleteReason } from '../../model/change.js';
import type { ObjectAction } from '../counts.js';
import type {
  Application, Plan, PlanAdoptIp, PlanChange, PlanCreateIp, PlanDeleteIp, PlanDeleteRule, PlanIpBefore, PlanIpObject, PlanRule,
} from '../types.js';
import {
  compareAttributes, formatExpiry, formatReason, ipAttributes, NONE, ruleAttributes, type Attribute,
} from './attributes.js';
import { groupBy } from './group.js';

/** Terraform's signs, and `@` for an adoption (an unmanaged object made Rampart's in place). */
export type Sign = '+' | '-' | '~' | '-/+' | '@';

export interface SourceLine {
  readonly file: string;
  readonly line: number;
  readonly col?: number;
}

export interface ChangeBlock {
  readonly action: ObjectAction;
  readonly sign: Sign;
  readonly kind: 'rule' | 'ip';
  readonly client: number;
  readonly application: Application;
  /** `rule block-admin #550 (vpatch)`, `deny ip_range`, `allow country`. */
  readonly title: string;
  /** Why a delete happens (`not-declared`, `duplicate`), or how a change runs (`replaces #550`). */
  readonly detail: readonly string[];
  /** Declaring lines (creates, updates, replacements). */
  readonly sources: readonly SourceLine[];
  /** IP values, sorted; `hidden` more the listing did not name. */
  readonly values?: { readonly list: readonly string[]; readonly hidden: number };
  readonly attributes: readonly Attribute[];
  /** Objects it counts (values for IP blocks). */
  readonly count: number;
}

export const LIST_LABELS: Readonly<Record<PlanIpObject['list'], string>> = { black: 'deny', white: 'allow', gray: 'gray' };

const ids = (list: readonly number[]): string => list.map((id) => `#${id}`).join(', ');

function ruleTitle(name: string | undefined, id: number | undefined, rule: PlanRule): string {
  const parts = ['rule', ...(name !== undefined ? [name] : []), ...(id !== undefined ? [`#${id}`] : [])];
  return `${parts.join(' ')} (${rule.kind})`;
}

function ipTitle(object: Pick<PlanIpObject, 'list' | 'rule_type'>, count: number): string {
  return `${LIST_LABELS[object.list]} list, ${object.rule_type} (${count} value${count === 1 ? '' : 's'})`;
}

function ruleBlocks(plan: Plan): ChangeBlock[] {
  const replaced = new Map<number, PlanDeleteRule>();
  for (const c of plan.changes) if (c.action === 'delete' && c.kind === 'rule' && c.reason === 'replaced') replaced.set(c.id, c);
  const folded = new Set<number>();
  const out: ChangeBlock[] = [];
  for (const c of plan.changes) {
    if (c.kind !== 'rule') continue;
    const base = { kind: 'rule', client: c.client, application: c.application } as const;
    if (c.action === 'create') {
      const old = (c.replaces ?? []).map((id) => replaced.get(id)).find((d) => d !== undefined);
      for (const id of c.replaces ?? []) if (replaced.has(id)) folded.add(id);
      const replacing = (c.replaces?.length ?? 0) > 0;
      const order = c.delete_first ? ', deleted first (the service keeps one per scope)' : ', deleted after the create';
      out.push({
        ...base, action: replacing ? 'replace' : 'create', sign: replacing ? '-/+' : '+',
        title: ruleTitle(c.name, undefined, c.rule),
        detail: replacing ? [`replaces ${ids(c.replaces ?? [])}${order}`] : [],
        sources: [{ file: c.file, line: c.line, col: c.col }],
        attributes: compareAttributes(ruleAttributes(c.rule), old ? ruleAttributes(old.rule, c.rule) : undefined),
        count: 1,
      });
    } else if (c.action === 'adopt') {
      out.push({
        ...base, action: 'adopt', sign: '@', title: ruleTitle(c.name, c.id, c.rule), detail: ['owner mark added'],
        sources: [{ file: c.file, line: c.line, col: c.col }],
        attributes: compareAttributes(ruleAttributes(c.rule), ruleAttributes(c.before, c.rule)),
        count: 1,
      });
    } else if (c.action === 'update') {
      out.push({
        ...base, action: 'update', sign: '~', title: ruleTitle(c.name, c.id, c.rule), detail: [],
        sources: [{ file: c.file, line: c.line, col: c.col }],
        attributes: compareAttributes(ruleAttributes(c.rule), ruleAttributes(c.before, c.rule)),
        count: 1,
      });
    }
  }
  for (const c of plan.changes) {
    if (c.kind !== 'rule' || c.action !== 'delete' || folded.has(c.id)) continue;
    out.push({
      kind: 'rule', client: c.client, application: c.application, action: 'delete', sign: '-',
      title: ruleTitle(c.name, c.id, c.rule), detail: [c.reason], sources: [],
      attributes: compareAttributes(ruleAttributes(c.rule)),
      count: c.reason === 'replaced' ? 0 : 1,
    });
  }
  return out;
}

/** What the objects a forced create or an adoption takes values from held, per attribute; several that differ show each value once. */
function ipBefore(before: readonly PlanIpBefore[] | undefined): Map<string, string> | undefined {
  if (!before || before.length === 0) return undefined;
  const join = (values: readonly string[]) => [...new Set(values)].join(' | ');
  return new Map([
    ['expires', join(before.map((b) => formatExpiry(b.expires_at)))],
    ['reason', join(before.map((b) => formatReason(b.reason)))],
  ]);
}

function ipCreateBlocks(creates: readonly PlanCreateIp[]): ChangeBlock[] {
  const key = (c: PlanCreateIp) => JSON.stringify([
    c.client, c.application, c.force, c.object.list, c.object.rule_type, c.object.expires_at, c.object.reason ?? '',
    [...(ipBefore(c.before) ?? [])],
  ]);
  return [...groupBy(creates, key).values()].map((group) => {
    const first = group[0] as PlanCreateIp;
    const replaces = [...new Set(group.flatMap((c) => c.replaces ?? []))].sort((a, b) => a - b);
    const values = group.flatMap((c) => c.object.values).sort();
    const sources = uniqueSources(group.flatMap((c) => c.sources));
    return {
      kind: 'ip', client: first.client, application: first.application,
      action: first.force ? 'replace' : 'create', sign: first.force ? '-/+' : '+',
      title: ipTitle(first.object, values.length),
      detail: first.force
        ? [replaces.length > 0 ? `moves the values out of ${ids(replaces)}` : 'forced']
        : replaces.length > 0 ? [`then deletes ${ids(replaces)}, which holds the values elsewhere`] : [],
      sources,
      values: { list: values, hidden: 0 },
      attributes: compareAttributes(ipAttributes(first.object), ipBefore(first.before)),
      count: values.length,
    };
  });
}

function ipAdoptBlocks(adoptions: readonly PlanAdoptIp[]): ChangeBlock[] {
  const key = (c: PlanAdoptIp) => JSON.stringify([
    c.client, c.application, c.object.list, c.object.rule_type, c.object.expires_at, c.object.reason ?? '', [...(ipBefore(c.before) ?? [])],
  ]);
  return [...groupBy(adoptions, key).values()].map((group) => {
    const first = group[0] as PlanAdoptIp;
    const values = group.flatMap((c) => c.object.values).sort();
    const from = [...new Set(group.flatMap((c) => c.ids))].sort((a, b) => a - b);
    return {
      kind: 'ip', client: first.client, application: first.application, action: 'adopt', sign: '@',
      title: ipTitle(first.object, values.length),
      detail: [`owner mark added, taken from unmanaged ${ids(from)}`],
      sources: uniqueSources(group.flatMap((c) => c.sources)),
      values: { list: values, hidden: 0 },
      attributes: compareAttributes(ipAttributes(first.object), ipBefore(first.before)),
      count: values.length,
    };
  });
}

function ipDeleteBlocks(deletes: readonly PlanDeleteIp[]): ChangeBlock[] {
  const objects = deletes.flatMap((d) => d.objects.map((o) => ({ client: d.client, ...o })));
  type Deleted = (typeof objects)[number];
  const key = (o: Deleted) => JSON.stringify([
    o.client, o.application, o.reason, o.object.list, o.object.rule_type, o.object.expires_at, o.object.reason ?? '',
  ]);
  return [...groupBy(objects, key).values()].map((group) => {
    const first = group[0] as Deleted;
    const moved = [...new Set(group.flatMap((o) => o.moved ?? []))].sort();
    const hidden = group.reduce((n, o) => n + Math.max(0, o.size - o.object.values.length - (o.moved?.length ?? 0)), 0);
    const values = group.flatMap((o) => o.object.values).sort();
    return {
      kind: 'ip', client: first.client, application: first.application, action: 'delete', sign: '-',
      title: ipTitle(first.object, values.length + hidden),
      detail: [
        first.reason as DeleteReason,
        `object${group.length === 1 ? '' : 's'} ${ids(group.map((o) => o.id))}`,
        ...(moved.length > 0 ? [`after moving out ${moved.join(', ')}`] : []),
      ],
      sources: [],
      values: { list: values, hidden },
      attributes: compareAttributes(ipAttributes(first.object)),
      count: values.length + hidden,
    };
  });
}

function uniqueSources(sources: readonly SourceLine[]): SourceLine[] {
  const seen = new Map<string, SourceLine>();
  for (const s of sources) {
    const k = `${s.file}:${s.line}`;
    if (!seen.has(k)) seen.set(k, { file: s.file, line: s.line, col: s.col });
  }
  return [...seen.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

const isIpCreate = (c: PlanChange): c is PlanCreateIp => c.kind === 'ip' && c.action === 'create';
const isIpDelete = (c: PlanChange): c is PlanDeleteIp => c.kind === 'ip' && c.action === 'delete';
const isIpAdopt = (c: PlanChange): c is PlanAdoptIp => c.kind === 'ip' && c.action === 'adopt';

/**
 * Every change action must have a block: an action added to PlanChange
 * (issue 13's `adopt`) fails to compile here until it is rendered.
 */
function checkRendered(change: PlanChange): void {
  switch (change.action) {
    case 'create':
    case 'update':
    case 'adopt':
    case 'delete':
      return;
    default: {
      const unrendered: never = change;
      throw new InternalError(`no rendering for the plan action of ${JSON.stringify(unrendered)}`);
    }
  }
}

/** Blocks in plan order: rule creates, replacements, updates and adoptions, IP creates, IP adoptions, rule deletes, IP deletes. */
export function changeBlocks(plan: Plan): ChangeBlock[] {
  plan.changes.forEach(checkRendered);
  const rules = ruleBlocks(plan);
  return [
    ...rules.filter((b) => b.action !== 'delete'),
    ...ipCreateBlocks(plan.changes.filter(isIpCreate)),
    ...ipAdoptBlocks(plan.changes.filter(isIpAdopt)),
    ...rules.filter((b) => b.action === 'delete'),
    ...ipDeleteBlocks(plan.changes.filter(isIpDelete)),
  ];
}

/** `file:line`, or the first few and how many more. */
export function sourcesLabel(sources: readonly SourceLine[], max = 3): string {
  const shown = sources.slice(0, max).map((s) => `${s.file}:${s.line}`);
  return sources.length > max ? `${shown.join(', ')} and ${sources.length - max} more` : shown.join(', ');
}

export { NONE };
