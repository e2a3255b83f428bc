import type { Change } from '../model/change.js';
import { DEFAULT_IP_API, type IpApiName } from '../model/ip-list-apis.js';
import type { Conflict, UnmanagedMatch } from './adoption.js';
import type { ExportedObject } from '../model/exported.js';
import type { Source } from '../model/source.js';
import { DEFAULT_OWNER } from '../model/ownership.js';
import { kindOf, type LiveRule } from '../model/rule.js';
import { compareStrings } from '../model/compare.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { canonicalJson } from './canonical.js';
import { hasCallCount } from './classes/class.js';
import { groupByClass, planClass, planClassOf } from './classes/index.js';
import { addCounts } from './change-counts.js';
import { diff } from './diff.js';
import type { RuleUpdates } from './diff-rules.js';
import { digestDesired, digestLive } from './digest.js';
import { compareSources, type Note } from './notes.js';
import { DEFAULT_SAFETY, safetyOf, type SafetyLimits } from './safety.js';
import { type PlanConflict, type PlanKept, type PlanNote, type PlanSummary, type PlanUnmanaged } from './types.js';
import type { Plan } from './model.js';
import { once } from './once.js';
import { exportedFiles } from './undeclared.js';

export interface PlanOptions extends Partial<SafetyLimits> {
  /** Owner name of the objects we may delete (default `rampart`). */
  readonly owner?: string;
  /** `replace` turns updates in place off (`--rule-updates replace`). */
  readonly ruleUpdates?: RuleUpdates;
  /** `--adopt`: unmanaged objects equal to (or blocking) declarations become Rampart's. */
  readonly adopt?: boolean;
  /** Unmanaged objects earlier exports wrote into the policies (src/export/record.ts). */
  readonly exported?: readonly ExportedObject[];
  /** The IP-list API the live state was read through, and the writes will go (default v4): it counts the calls. */
  readonly ipApi?: IpApiName;
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
  const changes = sortChanges(result.changes);
  const summary = summarize(changes, result.unchanged);
  const limits: SafetyLimits = {
    maxDeleteShare: options.maxDeleteShare ?? DEFAULT_SAFETY.maxDeleteShare,
    minOwned: options.minOwned ?? DEFAULT_SAFETY.minOwned,
  };
  const digests = lazyDigests(desired, live);
  return {
    owner,
    ...(options.ruleUpdates === 'replace' ? { ruleUpdates: 'replace' } : {}),
    ...(options.adopt ? { adopt: true } : {}),
    ...(options.ipApi && options.ipApi !== DEFAULT_IP_API ? { ipApi: options.ipApi } : {}),
    summary,
    apiCalls: apiCalls(changes, options.ipApi),
    safety: safetyOf(changes, result.owned, limits),
    // Computed when first asked: a JSON, markdown or saved plan asks; a text plan, an apply from the command line
    // and a daemon cycle never do.
    desiredDigest: digests.desired,
    liveDigest: digests.live,
    changes,
    notes: sortNotes(result.notes).map(toPlanNote),
    unmanaged: sortBySource(result.unmanaged).map(toPlanUnmanaged),
    leftUnmanaged: result.leftBehind.map((o) => ({ ...o })),
    ...(options.exported?.length ? { exportedFiles: exportedFiles(options.exported) } : {}),
    ...(result.kept.length > 0 ? { kept: [...result.kept].sort((a, b) => a.client - b.client || a.id - b.id).map(toPlanKept) } : {}),
    ...(result.conflicts.length > 0 ? { conflicts: sortBySource(result.conflicts).map(toPlanConflict) } : {}),
  };
}

/** The digests, each computed when first read; in scopes of their own, so that only these closures hold the states. */
function lazyDigests(desired: DesiredState, live: LiveState): { desired: () => string; live: () => string } {
  return { desired: lazyDigest(digestDesired, desired), live: lazyDigest(digestLive, live) };
}

/**
 * One state's digest, computed when first read. Each state gets a scope of its
 * own: closures made in one call share its scope, so a desired digest not read
 * yet would keep the live state alive too (the daemon's kept document reads
 * only the live one at once: 15 to 20 MB held between cycles at 10k rules +
 * 50k IP values).
 */
function lazyDigest<S>(digest: (state: S) => string, state: S): () => string {
  return once(() => digest(state));
}

/**
 * The same plan without some of its changes (the daemon's churn breaker holds
 * back writes that do not stick). `keep` may also return a narrower change (an
 * IP delete with fewer objects). Summary, calls, checksum and safety follow.
 */
export function restrictPlan(plan: Plan, keep: (change: Change) => Change | undefined): Plan {
  const changes = plan.changes.flatMap((change) => keep(change) ?? []);
  const limits: SafetyLimits = { maxDeleteShare: plan.safety.threshold, minOwned: plan.safety.minOwned };
  // The digests are the same methods: still computed once, when first asked.
  return {
    ...plan,
    summary: summarize(changes, plan.summary.unchanged),
    apiCalls: apiCalls(changes, plan.ipApi),
    safety: safetyOf(changes, plan.safety.ownedCount, limits),
    changes,
  };
}

export function hasChanges(plan: { readonly changes: readonly unknown[] }): boolean {
  return plan.changes.length > 0;
}

/** Calls the changes take: one each, but some classes share calls (a client's rule deletes go in batches). */
export function apiCalls(changes: readonly Change[], ipApi: IpApiName = DEFAULT_IP_API): number {
  let calls = 0;
  for (const [kind, group] of groupByClass(changes)) {
    const planSide = planClass(kind);
    calls += hasCallCount(planSide) ? planSide.calls(group, { ipApi }) : group.length;
  }
  return calls;
}

const ACTION_ORDER = { create: 0, update: 1, adopt: 1, delete: 2 } as const;

/** Widths of the sort key's client and class order: the key orders numbers as text. */
const CLIENT_DIGITS = 12;
const CLIENT_LIMIT = 10 ** CLIENT_DIGITS;

interface SortEntry {
  readonly change: Change;
  /**
   * `${action}|${client}|${order}|` as one number, where each part has its
   * width in the key (a client of 0 to 12 digits, an order of one digit):
   * then comparing it, then the tail, orders as comparing the keys' text.
   */
  readonly rank: number | undefined;
  readonly tail: string;
  /** The whole key's text, made only when a change has no rank, or is compared with one that has none. */
  key: string | undefined;
  tie: string;
  readonly first: Source | undefined;
}

function sortEntry(change: Change): SortEntry {
  const objectClass = planClassOf(change);
  const action = ACTION_ORDER[change.action];
  const client = objectClass.client(change);
  const { order } = objectClass;
  const ranked = Number.isInteger(client) && client >= 0 && client < CLIENT_LIMIT && Number.isInteger(order) && order >= 0 && order <= 9;
  return {
    change,
    rank: ranked ? (action * CLIENT_LIMIT + client) * 10 + order : undefined,
    tail: objectClass.sortTail(change),
    key: undefined,
    tie: '',
    first: objectClass.firstSource(change),
  };
}

function keyOf(entry: SortEntry): string {
  if (entry.key === undefined) {
    const objectClass = planClassOf(entry.change);
    const client = String(objectClass.client(entry.change)).padStart(CLIENT_DIGITS, '0');
    entry.key = `${ACTION_ORDER[entry.change.action]}|${client}|${objectClass.order}|${entry.tail}`;
  }
  return entry.key;
}

function compareEntries(a: SortEntry, b: SortEntry): number {
  if (a.rank !== undefined && b.rank !== undefined) {
    if (a.rank !== b.rank) return a.rank - b.rank;
    return compareStrings(a.tail, b.tail);
  }
  return compareStrings(keyOf(a), keyOf(b));
}

function sortChanges(changes: readonly Change[]): Change[] {
  // Keys and first sources computed once per change, not once per comparison.
  const entries = changes.map(sortEntry);
  entries.sort((a, b) => {
    const byKey = compareEntries(a, b);
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
  return entries.map((k) => k.change);
}

function toPlanKept(rule: LiveRule): PlanKept {
  return {
    kind: 'rule', client: rule.client, id: rule.id, type: rule.kind, ...(rule.name !== undefined ? { name: rule.name } : {}),
    undeletable: kindOf(rule).undeletable ?? 'always',
  };
}

/** Objects each change touches (see PlanSummary and counts.ts); key order is the JSON's. */
function summarize(changes: readonly Change[], unchanged: number): PlanSummary {
  const counts = addCounts({ create: 0, update: 0, delete: 0, replace: 0, adopt: 0 }, changes);
  return { create: counts.create, update: counts.update, delete: counts.delete, unchanged, replace: counts.replace, adopt: counts.adopt };
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
  return {
    kind: c.kind, client: c.client, id: c.id, file: c.source.file, line: c.source.line, col: c.source.col, name: c.source.name, message: c.message,
    ...(c.adoptable === false ? { adoptable: false as const } : {}),
  };
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
