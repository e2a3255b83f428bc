import type { Change } from '../model/change.js';
import { DEFAULT_OWNER } from '../model/ownership.js';
import type { LiveRule } from '../model/rule.js';
import { objectsOf } from '../model/object-class.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { adoptUnmanaged, linkMoves } from './adopt.js';
import type { Conflict, UnmanagedMatch } from './adoption.js';
import { hasKeyedDiff } from './classes/class.js';
import { classesInPlanOrder, planClass } from './classes/index.js';
import { diffKeyed, type KeyedDiffResult } from './diff-keyed.js';
import { diffIp } from './diff-ip.js';
import type { ExportedObject } from '../model/exported.js';
import { leftBehind, type LeftBehind } from './left-behind.js';
import { diffRules, type RuleUpdates } from './diff-rules.js';
import type { Note } from './notes.js';
import { recognizeIpEntries, recognizeRules } from './recognize.js';
import { hasReferences, resolveReferences } from './references.js';

export interface DiffOptions {
  /** Owner name of the objects we may delete (default `rampart`). */
  readonly owner?: string;
  /** `replace`: changes to updatable fields re-create the rule instead of updating it (default `update`). */
  readonly ruleUpdates?: RuleUpdates;
  /** `--adopt`: unmanaged objects equal to (or blocking) declarations become Rampart's (src/plan/adopt.ts). */
  readonly adopt?: boolean;
  /** Unmanaged objects earlier exports wrote into the policies (src/export/record.ts). */
  readonly exported?: readonly ExportedObject[];
}

export interface DiffResult {
  /** Unordered; `buildPlan` sorts them. */
  readonly changes: readonly Change[];
  /** Desired objects (values) already in place. */
  readonly unchanged: number;
  readonly notes: readonly Note[];
  /** Live objects (rules and IP values) carrying our owner mark. */
  readonly owned: number;
  /** Declarations satisfied by unmanaged objects, left unmanaged (counted in `unchanged`). */
  readonly unmanaged: readonly UnmanagedMatch[];
  /** Unmanaged objects blocking declarations; a plan with any is not applied. */
  readonly conflicts: readonly Conflict[];
  /** Exported unmanaged objects no declaration matches any more: they stay in the account. */
  readonly leftBehind: readonly LeftBehind[];
  /** Owned rules no longer declared that a client cannot delete: they stay in the account. */
  readonly kept: readonly LiveRule[];
}

/**
 * Desired versus live: the calls that bring the account in step. Only clients
 * the policies name are reconciled; live objects of any other client are
 * ignored (a client whose files were removed is left alone, never emptied).
 */
export function diff(desired: DesiredState, live: LiveState, options: DiffOptions = {}): DiffResult {
  const owner = options.owner ?? DEFAULT_OWNER;
  const clients = new Set(desired.clients);
  const listedRules = live.rules.filter((r) => clients.has(r.client));
  let desiredRules = desired.rules;
  let liveRules = recognizeRules(desiredRules, listedRules, owner);
  if (hasReferences(desiredRules)) {
    // References resolve against the live regex rules as recognized; the resolved rules are what was created.
    desiredRules = resolveReferences(desiredRules, liveRules.live);
    liveRules = recognizeRules(desiredRules, listedRules, owner);
  }
  const liveIp = recognizeIpEntries(desired.ipEntries, live.ipEntries.filter((e) => clients.has(e.client)), owner);
  const adoption = adoptUnmanaged({
    desiredRules, liveRules: liveRules.live, desiredIp: desired.ipEntries, liveIp: liveIp.live, owner, adopt: options.adopt ?? false,
  });
  const rules = diffRules(adoption.desiredRules, adoption.liveRules, owner, options.ruleUpdates);
  const ip = diffIp(adoption.desiredIp, adoption.liveIp, owner);
  const keyed = keyedDiffs(desired, live, clients, owner);
  return {
    changes: [...adoption.changes, ...rules.changes, ...linkMoves(ip.changes, adoption.moves), ...keyed.flatMap((k) => k.changes)],
    unchanged: rules.unchanged + ip.unchanged + adoption.unmanaged.length + sum(keyed, (k) => k.unchanged),
    notes: [...liveRules.notes, ...rules.notes, ...liveIp.notes, ...ip.notes],
    owned: rules.owned + ip.owned + sum(keyed, (k) => k.owned),
    unmanaged: [...adoption.unmanaged, ...keyed.flatMap((k) => k.unmanaged)],
    conflicts: [...adoption.conflicts, ...rules.conflicts, ...keyed.flatMap((k) => k.conflicts)],
    leftBehind: leftBehind(options.exported ?? [], liveRules.live, liveIp.live, adoption.claimed),
    kept: rules.kept,
  };
}

/** The diff of each class that pairs its objects by key, not in the cross-class pass above (diff-keyed.ts). */
function keyedDiffs(desired: DesiredState, live: LiveState, clients: ReadonlySet<number>, owner: string): KeyedDiffResult<Change>[] {
  return classesInPlanOrder().flatMap((kind) => {
    const planSide = planClass(kind);
    if (!hasKeyedDiff(planSide)) return [];
    const keyed = planSide.keyed;
    const listed = objectsOf(live, kind).filter((object) => clients.has(keyed.client(object)));
    return [diffKeyed(kind, keyed, objectsOf(desired, kind), listed, owner)];
  });
}

function sum<T>(items: readonly T[], count: (item: T) => number): number {
  return items.reduce((n, item) => n + count(item), 0);
}
