/** Plan blocks of IP changes: values grouped per client, application, list, type and attributes. */
import { onActionGroups, type ByActionGroup } from '../../../model/by-action.js';
import type { DeleteReason } from '../../../model/delete-reason.js';
import type { PlanIpChange, PlanAdoptIp, PlanDeleteIp, PlanCreateIp, PlanIpBefore, PlanIpObject } from '../../classes/ip-document.js';
import type { ChangeImpact } from '../../change-document.js';
import { combinedImpact } from '../impact.js';
import { compareAttributes, NONE } from '../attributes.js';
import { ids, type ChangeBlock, type SourceLine } from '../change-block.js';
import { LIST_LABELS, NEVER_EXPIRES } from '../../../model/ip.js';
import { groupBy } from '../group.js';

/** Creates, adoptions and deletes, each grouped into blocks, in this order. */
const IP_BLOCKS: ByActionGroup<PlanIpChange, ChangeBlock[]> = { create: ipCreateBlocks, adopt: ipAdoptBlocks, delete: ipDeleteBlocks };

export function ipBlocks(changes: readonly PlanIpChange[]): ChangeBlock[] {
  return onActionGroups(changes, IP_BLOCKS).flat();
}

function ipTitle(object: Pick<PlanIpObject, 'list' | 'rule_type'>, count: number): string {
  return `${LIST_LABELS[object.list]} list, ${object.rule_type} (${count} value${count === 1 ? '' : 's'})`;
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
      ...impactOf(group),
    };
  });
}

/** The block's impact from its changes', when the plan has one. */
function impactOf(changes: readonly { readonly impact?: ChangeImpact }[]): { impact?: ChangeImpact } {
  const impact = combinedImpact(changes.map((c) => c.impact));
  return impact ? { impact } : {};
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
      ...impactOf(group),
    };
  });
}

/** A client's deletes are one change: its impact goes with the client's first delete block. */
function ipDeleteBlocks(deletes: readonly PlanDeleteIp[]): ChangeBlock[] {
  const shown = new Set<number>();
  const impacts = new Map(deletes.map((d) => [d.client, d.impact]));
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
    const impact = shown.has(first.client) ? undefined : impacts.get(first.client);
    shown.add(first.client);
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
      ...(impact ? { impact } : {}),
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

export function formatExpiry(seconds: number): string {
  return seconds >= NEVER_EXPIRES ? 'never' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

export function formatReason(reason: string | undefined): string {
  return reason === undefined || reason === '' ? NONE : JSON.stringify(reason);
}

/** IP attributes besides the values (shown as a block of their own). */
export function ipAttributes(object: Pick<PlanIpObject, 'expires_at' | 'reason'>): Map<string, string> {
  return new Map([['expires', formatExpiry(object.expires_at)], ['reason', formatReason(object.reason)]]);
}
