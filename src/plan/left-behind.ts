/**
 * Saying what will not happen: an object `rampart export` wrote into the
 * policies while nobody managed it (its record, src/export/record.ts), that
 * no declaration matches any more, still in the account and still without a
 * mark. Removing its declaration deleted nothing, since Rampart deletes only
 * what it owns; the plan names it instead of reading as "the account matches
 * the policies". Adopted objects carry the mark (or, for IP values, a new id)
 * and are planned like any other owned object.
 */
import { planClass } from './classes/index.js';
import type { ObjectClass } from '../model/object-class.js';
import type { ExportedObject } from '../model/exported.js';
import type { LiveIpEntry } from '../model/ip.js';
import type { LiveRule } from '../model/rule.js';

export interface LeftBehind {
  readonly kind: ObjectClass;
  readonly client: number;
  readonly id: number;
  readonly value?: string;
  /** The exported file that declared it. */
  readonly file: string;
}

export function leftBehind(
  exported: readonly ExportedObject[],
  rules: readonly LiveRule[],
  ipEntries: readonly LiveIpEntry[],
  claimed: ReadonlySet<LiveRule | LiveIpEntry>,
): LeftBehind[] {
  if (exported.length === 0) return [];
  // One key per live object of any class: a rule has no value.
  const key = (kind: ObjectClass, o: { client: number; id: number; value?: string | undefined }) => `${kind}|${o.client}|${o.id}|${o.value ?? ''}`;
  const liveByKey = new Map<string, LiveRule | LiveIpEntry>([
    ...rules.map((r) => [key('rule', r), r] as const),
    ...ipEntries.map((e) => [key('ip', e), e] as const),
  ]);
  const seen = new Set<string>();
  const out: LeftBehind[] = [];
  for (const o of exported) {
    const k = key(o.kind, o);
    const live = liveByKey.get(k);
    if (!live || live.owner !== undefined || claimed.has(live) || seen.has(k)) continue;
    seen.add(k);
    out.push({ kind: o.kind, client: o.client, id: o.id, ...(o.value !== undefined ? { value: o.value } : {}), file: o.file });
  }
  return out.sort((a, b) => a.client - b.client || planClass(a.kind).order - planClass(b.kind).order || a.id - b.id || (a.value ?? '').localeCompare(b.value ?? ''));
}
