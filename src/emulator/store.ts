/**
 * The emulator's mutable state: rules (hints), condition sets (actions), IP-list
 * objects and id counters. Records keep the write times needed to emulate
 * listing lag: a write takes effect at once for conflicts but shows in listings
 * only after the lag.
 */
import type { IpListName, IpRuleType } from '../model/ip.js';

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
  active: boolean;
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

/** A record plus when (emulator clock, ms) it was written and deleted. */
export interface Stored<T> {
  record: T;
  createdMs: number;
  deletedMs?: number;
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
  return stored.deletedMs === undefined;
}

/** Whether a listing at `nowMs` shows the record, given the configured lag. */
export function isListed<T>(stored: Stored<T>, nowMs: number, lagMs: number): boolean {
  if (stored.createdMs + lagMs > nowMs) return false;
  return stored.deletedMs === undefined || nowMs < stored.deletedMs + lagMs;
}

/** Drops deleted records that no listing can show any more. */
export function purgeTombstones<T>(map: Map<number, Stored<T>>, nowMs: number, lagMs: number): void {
  for (const [id, stored] of map) {
    if (stored.deletedMs !== undefined && stored.deletedMs + lagMs <= nowMs) map.delete(id);
  }
}

export function markDeleted<T>(map: Map<number, Stored<T>>, id: number, nowMs: number, lagMs: number): void {
  const stored = map.get(id);
  if (!stored || stored.deletedMs !== undefined) return;
  // Without lag nothing can list it again: forget it at once.
  if (lagMs <= 0) map.delete(id);
  else stored.deletedMs = nowMs;
}
