import type { Change } from '../model/change.js';
import { DEFAULT_OWNER } from '../model/ownership.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { diffIp } from './diff-ip.js';
import { diffRules, type RuleUpdates } from './diff-rules.js';
import type { Note } from './notes.js';
import { recognizeIpEntries, recognizeRules } from './recognize.js';
import { hasRegexReferences, resolveRegexReferences } from './references.js';

export interface DiffOptions {
  /** Owner name of the objects we may delete (default `rampart`). */
  readonly owner?: string;
  /** `replace`: changes to updatable fields re-create the rule instead of updating it (default `update`). */
  readonly ruleUpdates?: RuleUpdates;
}

export interface DiffResult {
  /** Unordered; `buildPlan` sorts them. */
  readonly changes: readonly Change[];
  /** Desired objects (values) already in place. */
  readonly unchanged: number;
  readonly notes: readonly Note[];
  /** Live objects (rules and IP values) carrying our owner mark. */
  readonly owned: number;
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
  if (hasRegexReferences(desiredRules)) {
    // References resolve against the live regex rules as recognized; the resolved rules are what was created.
    desiredRules = resolveRegexReferences(desiredRules, liveRules.live);
    liveRules = recognizeRules(desiredRules, listedRules, owner);
  }
  const liveIp = recognizeIpEntries(desired.ipEntries, live.ipEntries.filter((e) => clients.has(e.client)), owner);
  const rules = diffRules(desiredRules, liveRules.live, owner, options.ruleUpdates);
  const ip = diffIp(desired.ipEntries, liveIp.live, owner);
  return {
    changes: [...rules.changes, ...ip.changes],
    unchanged: rules.unchanged + ip.unchanged,
    notes: [...liveRules.notes, ...rules.notes, ...liveIp.notes, ...ip.notes],
    owned: rules.owned + ip.owned,
  };
}
