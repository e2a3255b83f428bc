/**
 * The emulator's mutable state: rules (hints), condition sets (actions), IP-list
 * objects and id counters. Records keep the write times needed to emulate
 * listing lag: a write takes effect at once for conflicts but shows in listings
 * only after the lag.
 */
import type { IpListName, IpRuleType } from './ip/vocabulary.js';

export interface ConditionRecord {
  point: (string | number)[];
  type: string;
  value: string | null;
}

/** A hint as the API returns it. Types we do not model keep their extra fields. */
export interface HintRecord {
  id: number;
  actionid: number;
  clientid: number;
  type: string;
  action: ConditionRecord[];
  point: (string | number)[];
  attack_type: string | null;
  regex: string | null;
  regex_id: number | null;
  mode: string | null;
  comment: string | null;
  validated: boolean;
  /** Whether the service may change the rule as its signatures evolve; Rampart always disables it. */
  variativity_disabled: boolean;
  active: boolean;
  title: string | null;
  /** The rule set the rule belongs to, by name. */
  set: string | null;
  system: boolean;
  create_time: number;
  updated_at: number;
  [extra: string]: unknown;
}

export interface ActionRecord {
  id: number;
  clientid: number;
  conditions: ConditionRecord[];
  updated_at: number;
}

export interface IpObject {
  id: number;
  clientid: number;
  list: IpListName;
  rule_type: IpRuleType;
  /** `ip_range` only: the CIDR with its mask. */
  subnet: string | null;
  /** Other rule types: the values this object holds. */
  source_values: string[] | null;
  country?: string;
  proxy_type?: string;
  datacenter?: string;
  pools: number[];
  expired_at: number;
  reason: string | null;
  created_at: number;
  author: string;
}

/**
 * A record plus when listings show it (emulator clock, ms). Both times include
 * the lag in force at the write, so changing the lag later only affects later
 * writes. A record with `unlistedFromMs` is deleted (still listed until then).
 */
export interface Stored<T> {
  record: T;
  listedFromMs: number;
  unlistedFromMs?: number;
  /** After an update in place: what listings show instead of `record` until `untilMs`. */
  previous?: { record: T; untilMs: number };
  /** The one-per-scope duplicate quirk: the service drops this record at that time (rules/scope-duplicates.ts). */
  dropAtMs?: number;
  /** Made by the service itself (an account's default controls): editable, never deleted by a client. */
  serviceMade?: boolean;
}

export interface EmulatorState {
  nextIds: { hint: number; action: number; ip: number; regex: number };
  /** Added to the base clock by `advanceClock`; persisted so expiry survives restarts. */
  clockOffsetMs: number;
  hints: Map<number, Stored<HintRecord>>;
  /** Keyed by client and sorted condition set: the same set always gets the same id. */
  actions: Map<string, ActionRecord>;
  ipObjects: Map<number, Stored<IpObject>>;
}

export function emptyState(): EmulatorState {
  return {
    nextIds: { hint: 1, action: 1, ip: 1, regex: 1 },
    clockOffsetMs: 0,
    hints: new Map(),
    actions: new Map(),
    ipObjects: new Map(),
  };
}

export function isLive<T>(stored: Stored<T>): boolean {
  return stored.unlistedFromMs === undefined;
}

export function isListed<T>(stored: Stored<T>, nowMs: number): boolean {
  return stored.listedFromMs <= nowMs && (stored.unlistedFromMs === undefined || nowMs < stored.unlistedFromMs);
}

/** The version listings show now: the one before the last update until that update's lag has passed. */
export function listedVersion<T>(stored: Stored<T>, nowMs: number): T {
  return stored.previous && nowMs < stored.previous.untilMs ? stored.previous.record : stored.record;
}

/** Drops deleted records that no listing can show any more. */
export function purgeTombstones<T>(map: Map<number, Stored<T>>, nowMs: number): void {
  for (const [id, stored] of map) {
    if (stored.unlistedFromMs !== undefined && stored.unlistedFromMs <= nowMs) map.delete(id);
  }
}

/** Deleted at once for writes and conflicts; listings keep showing it for the lag. */
export function markDeleted<T>(map: Map<number, Stored<T>>, id: number, nowMs: number, lagMs: number): void {
  const stored = map.get(id);
  if (!stored || stored.unlistedFromMs !== undefined) return;
  if (lagMs <= 0) map.delete(id);
  else stored.unlistedFromMs = nowMs + lagMs;
}
