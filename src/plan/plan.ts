import { InternalError } from '../errors.js';
import type { AdoptIp, Change, CreateIp, CreateRule, DeleteIp, IpAttributesBefore } from '../model/change.js';
import type { Conflict, UnmanagedMatch } from './adopt.js';
import type { ExportedObject } from '../model/exported.js';
import { DEFAULT_OWNER } from '../model/ownership.js';
import { compareStrings, kindOf, type LiveRule } from '../model/rule.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { canonicalJson, sha256 } from './canonical.js';
import { addCounts } from './counts.js';
import { nestedKeys } from './changed-keys.js';
import { diff } from './diff.js';
import type { RuleUpdates } from './diff-rules.js';
import { digestDesired, digestLive } from './digest.js';
import { compareSources, type Note } from './notes.js';
import {
  poolsApplication, ruleApplication, toPlanIpObject, toPlanRule, unionApplication,
} from './objects.js';
import { DEFAULT_SAFETY, safetyOf, type SafetyLimits } from './safety.js';
import {
  PLAN_FORMAT_VERSION, type Plan, type PlanChange, type PlanConflict, type PlanIpBefore, type PlanKept, type PlanNote, type PlanSource, type PlanSummary, type PlanUnmanaged,
} from './types.js';

export interface PlanOptions extends Partial<SafetyLimits> {
  /** Owner name of the objects we may delete (default `rampart`). */
  readonly owner?: string;
  /** `replace` turns updates in place off (`--rule-updates replace`). */
  readonly ruleUpdates?: RuleUpdates;
  /** `--adopt`: unmanaged objects equal to (or blocking) declarations become Rampart's. */
  readonly adopt?: boolean;
  /** Unmanaged objects earlier exports wrote into the policies (src/export/record.ts). */
  readonly exported?: readonly ExportedObject[];
}

/**
 * Diff, then order: every create first (by client, rules before IP, list, then
 * source file and line), then every delete (by client, rules by id, then the
 * client's one batched IP delete). Creates first means a replacement or a value
 * moved out of a doomed object is in place before the old one goes.
 */
export function buildPlan(desired: DesiredState, live: LiveState, options: PlanOptions = {}): Plan {
  const owner = options.owner ?? DEFAULT_OWNER;
  const result = diff(desired, live, {
    owner, adopt: options.adopt ?? false, exported: options.exported ?? [], ...(options.ruleUpdates ? { ruleUpdates: options.ruleUpdates } : {}),
  });
  const changes = sortChanges(result.changes).map(toPlanChange);
  const summary = summarize(changes, result.unchanged);
  const limits: SafetyLimits = {
    maxDeleteShare: options.maxDeleteShare ?? DEFAULT_SAFETY.maxDeleteShare,
    minOwned: options.minOwned ?? DEFAULT_SAFETY.minOwned,
  };
  const checksum = once(() => planChecksum(changes));
  return {
    format_version: PLAN_FORMAT_VERSION,
    owner,
    ...(options.ruleUpdates === 'replace' ? { rule_updates: 'replace' } : {}),
    ...(options.adopt ? { adopt: true } : {}),
    summary,
    api_calls: apiCalls(changes),
    safety: safetyOf(changes, result.owned, limits),
    get checksum() {
      return checksum();
    },
    desired_digest: digestDesired(desired),
    live_digest: digestLive(live),
    changes,
    notes: sortNotes(result.notes).map(toPlanNote),
    unmanaged: sortBySource(result.unmanaged).map(toPlanUnmanaged),
    left_unmanaged: result.leftBehind.map((o) => ({ ...o })),
    ...(result.kept.length > 0 ? { kept: [...result.kept].sort((a, b) => a.client - b.client || a.id - b.id).map(toPlanKept) } : {}),
    ...(result.conflicts.length > 0 ? { conflicts: sortBySource(result.conflicts).map(toPlanConflict) } : {}),
  };
}

/**
 * The same plan without some of its changes (the daemon's churn breaker holds
 * back writes that do not stick). `keep` may also return a narrower change (an
 * IP delete with fewer objects). Summary, calls, checksum and safety follow.
 */
export function restrictPlan(plan: Plan, keep: (change: PlanChange) => PlanChange | undefined): Plan {
  const changes = plan.changes.flatMap((change) => keep(change) ?? []);
  const limits: SafetyLimits = { maxDeleteShare: plan.safety.threshold, minOwned: plan.safety.min_owned };
  const checksum = once(() => planChecksum(changes));
  return {
    ...plan,
    summary: summarize(changes, plan.summary.unchanged),
    api_calls: apiCalls(changes),
    safety: safetyOf(changes, plan.safety.owned_count, limits),
    get checksum() {
      return checksum();
    },
    changes,
  };
}

/**
 * sha256 of the canonical JSON of the changes; `apply --plan` recomputes it.
 * A plan computes it when first read (a saved or JSON plan, the markdown
 * footer, apply's report): the text plan and the daemon's cycles never read
 * it, and at 100k objects it is a second of walking the changes.
 */
export function planChecksum(changes: readonly PlanChange[]): string {
  return sha256(canonicalJson(changes));
}

/** `compute()` on the first call, its result after. */
function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value as T;
  };
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}

/** Rule deletes of one client the service takes in one call. */
export const RULE_DELETE_BATCH = 1000;

/** Calls the changes take: one each, but a client's rule deletes share calls of up to RULE_DELETE_BATCH ids. */
export function apiCalls(changes: readonly PlanChange[]): number {
  const deletesByClient = new Map<number, number>();
  let calls = 0;
  for (const c of changes) {
    if (c.action === 'delete' && c.kind === 'rule') deletesByClient.set(c.client, (deletesByClient.get(c.client) ?? 0) + 1);
    else calls++;
  }
  for (const n of deletesByClient.values()) calls += Math.ceil(n / RULE_DELETE_BATCH);
  return calls;
}

const KIND_ORDER = { rule: 0, ip: 1 } as const;
const ACTION_ORDER = { create: 0, update: 1, adopt: 1, delete: 2 } as const;

function clientOf(change: Change): number {
  return change.kind === 'rule' ? change.rule.client : change.client;
}

function sortKey(change: Change): string {
  const client = String(clientOf(change)).padStart(12, '0');
  const head = `${ACTION_ORDER[change.action]}|${client}|${KIND_ORDER[change.kind]}`;
  if (change.action === 'delete') return `${head}|${String(change.kind === 'rule' ? change.rule.id : 0).padStart(16, '0')}`;
  if (change.action === 'update') return `${head}|${String(change.live.id).padStart(16, '0')}`;
  if (change.action === 'adopt') return `${head}|${String(change.kind === 'rule' ? change.live.id : (change.from[0] ?? 0)).padStart(16, '0')}`;
  return `${head}|${change.kind === 'ip' ? change.list : ''}`;
}

function firstSource(change: CreateRule | CreateIp | AdoptIp) {
  if (change.kind === 'rule') return change.rule.source;
  let first = change.entries[0]?.source;
  for (const entry of change.entries) if (first && compareSources(entry.source, first) < 0) first = entry.source;
  return first ?? { file: '', line: 0, col: 0, name: '' };
}

function sortChanges(changes: readonly Change[]): Change[] {
  // Keys and first sources computed once per change, not once per comparison.
  const keyed = changes.map((change) => ({
    change, key: sortKey(change), tie: '', first: change.action === 'create' ? firstSource(change) : undefined,
  }));
  keyed.sort((a, b) => {
    const byKey = compareStrings(a.key, b.key);
    if (byKey !== 0) return byKey;
    if (a.first && b.first) {
      const bySource = compareSources(a.first, b.first);
      if (bySource !== 0) return bySource;
    }
    // Last resort, computed only on ties: the change's own content.
    a.tie ||= canonicalJson(a.change);
    b.tie ||= canonicalJson(b.change);
    return compareStrings(a.tie, b.tie);
  });
  return keyed.map((k) => k.change);
}

function toPlanChange(change: Change): PlanChange {
  if (change.kind === 'ip') {
    if (change.action === 'adopt') return adoptIpChange(change);
    return change.action === 'create' ? createIpChange(change) : deleteIpChange(change);
  }
  const base = { kind: 'rule', client: change.rule.client, application: ruleApplication(change.rule) } as const;
  if (change.action === 'adopt') {
    const { rule, live } = change;
    return {
      action: 'adopt', ...base, id: live.id, file: rule.source.file, line: rule.source.line, col: rule.source.col, name: rule.source.name,
      fields: [...change.fields], ...nestedKeys(rule, live, change.fields), rule: toPlanRule(rule), before: toPlanRule(live),
    };
  }
  if (change.action === 'update') {
    const { rule, live } = change;
    return {
      action: 'update', ...base, id: live.id, file: rule.source.file, line: rule.source.line, col: rule.source.col, name: rule.source.name,
      fields: [...change.fields], ...nestedKeys(rule, live, change.fields), rule: toPlanRule(rule), before: toPlanRule(live),
      ...(live.adopted ? { adopted: true } : {}),
    };
  }
  if (change.action === 'delete') {
    return {
      action: 'delete', ...base, id: change.rule.id, ...(change.rule.name !== undefined ? { name: change.rule.name } : {}),
      reason: change.reason, rule: toPlanRule(change.rule),
    };
  }
  const rule = change.rule;
  return {
    action: 'create', ...base, file: rule.source.file, line: rule.source.line, col: rule.source.col, name: rule.source.name,
    ...(change.replaces && change.replaces.length > 0 ? { replaces: [...change.replaces] } : {}),
    ...(change.deleteFirst ? { delete_first: true } : {}),
    rule: toPlanRule(rule),
  };
}

function toPlanKept(rule: LiveRule): PlanKept {
  return {
    kind: 'rule', client: rule.client, id: rule.id, type: rule.kind, ...(rule.name !== undefined ? { name: rule.name } : {}),
    undeletable: kindOf(rule).undeletable ?? 'always',
  };
}

function adoptIpChange(c: AdoptIp): PlanChange {
  const sources = planSources(c.entries);
  const first = sources[0] ?? { file: '', line: 0, col: 0, name: '' };
  return {
    action: 'adopt', kind: 'ip', client: c.client, application: poolsApplication(c.pools), ids: [...c.from],
    file: first.file, line: first.line, col: first.col, name: first.name, fields: [...c.fields],
    ...(c.before && c.before.length > 0 ? { before: c.before.map(toPlanIpBefore) } : {}),
    object: toPlanIpObject(c, c.entries.map((e) => e.value)),
    sources,
  };
}

function createIpChange(c: CreateIp): PlanChange {
  const sources = planSources(c.entries);
  const first = sources[0] ?? { file: '', line: 0, col: 0, name: '' };
  return {
    action: 'create', kind: 'ip', client: c.client, application: poolsApplication(c.pools),
    file: first.file, line: first.line, col: first.col, name: first.name, force: c.force,
    ...(c.replaces && c.replaces.length > 0 ? { replaces: [...c.replaces] } : {}),
    ...(c.before && c.before.length > 0 ? { before: c.before.map(toPlanIpBefore) } : {}),
    object: toPlanIpObject(c, c.entries.map((e) => e.value)),
    sources,
  };
}

/** The policy lines that declared the values of one IP change, each with its values. */
function planSources(entries: CreateIp['entries']): PlanSource[] {
  const [only] = entries;
  // Most creates carry one value (every ip_range value is a create of its own).
  if (only && entries.length === 1) {
    return [{ file: only.source.file, line: only.source.line, col: only.source.col, name: only.source.name, values: [only.value] }];
  }
  const bySource = new Map<string, { source: CreateIp['entries'][number]['source']; values: string[] }>();
  for (const e of entries) {
    // A path holds no NUL and the name comes last: one key per declaring line.
    const key = `${e.source.file}\u0000${e.source.line}\u0000${e.source.col}\u0000${e.source.name}`;
    const s = bySource.get(key);
    if (s) s.values.push(e.value);
    else bySource.set(key, { source: e.source, values: [e.value] });
  }
  const sources: PlanSource[] = [...bySource.values()]
    .sort((a, b) => compareSources(a.source, b.source))
    .map(({ source, values }) => ({ file: source.file, line: source.line, col: source.col, name: source.name, values }));
  return sources;
}

function deleteIpChange(c: DeleteIp): PlanChange {
  const all = c.objects.flatMap((o) => [...o.entries, ...o.moved]);
  return {
    action: 'delete', kind: 'ip', client: c.client, application: unionApplication(all),
    ids: c.objects.map((o) => o.id),
    objects: c.objects.map((o) => {
      const first = o.entries[0] ?? o.moved[0];
      if (!first) throw new InternalError(`IP object ${o.id} to delete holds no value`);
      return {
        id: o.id, reason: o.reason, application: poolsApplication(first.pools), size: o.size,
        object: toPlanIpObject(first, o.entries.map((e) => e.value)),
        ...(o.moved.length > 0 ? { moved: o.moved.map((e) => e.value) } : {}),
      };
    }),
  };
}

/** Objects each change touches (see PlanSummary and counts.ts); key order is the JSON's. */
function summarize(changes: readonly PlanChange[], unchanged: number): PlanSummary {
  const counts = addCounts({ create: 0, update: 0, delete: 0, replace: 0, adopt: 0 }, changes);
  return { create: counts.create, update: counts.update, delete: counts.delete, unchanged, replace: counts.replace, adopt: counts.adopt };
}

function toPlanIpBefore(b: IpAttributesBefore): PlanIpBefore {
  return { id: b.id, expires_at: b.expiresAt, ...(b.reason !== undefined ? { reason: b.reason } : {}) };
}

function sortBySource<T extends { readonly client: number; readonly source: Note['source']; readonly id: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.client - b.client || compareSources(a.source, b.source) || a.id - b.id);
}

function toPlanUnmanaged(u: UnmanagedMatch): PlanUnmanaged {
  return {
    kind: u.kind, client: u.client, id: u.id, file: u.source.file, line: u.source.line, col: u.source.col, name: u.source.name,
    ...(u.value !== undefined ? { value: u.value } : {}),
  };
}

function toPlanConflict(c: Conflict): PlanConflict {
  return { kind: c.kind, client: c.client, id: c.id, file: c.source.file, line: c.source.line, col: c.source.col, name: c.source.name, message: c.message };
}

function sortNotes(notes: readonly Note[]): Note[] {
  return [...notes].sort((a, b) =>
    a.client - b.client || compareSources(a.source, b.source) || a.id - b.id || compareStrings(a.message, b.message));
}

function toPlanNote(n: Note): PlanNote {
  return {
    level: n.level, kind: n.kind, client: n.client, file: n.source.file, line: n.source.line,
    name: n.source.name, id: n.id, message: n.message,
  };
}
