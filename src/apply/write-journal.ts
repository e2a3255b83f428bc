/**
 * Remembers Rampart's own recent writes so that a lagging listing (api-notes:
 * about 3 s) never causes a duplicate create or a repeated delete. Before each
 * plan the live state is overlaid: what we created but is not listed yet counts
 * as present; what we deleted but is still listed counts as gone. An entry is
 * forgotten once the listing agrees with it, or after `ttlMs`.
 */
import { ipKey, type LiveIpEntry } from '../model/ip.js';
import { type LiveRule, ruleKey } from '../model/rule.js';
import type { LiveState } from '../model/state.js';

interface Remembered<T> {
  readonly value: T;
  readonly at: number;
}

/** Ids below zero stand for objects whose real id we do not know yet; they are never deleted. */
export const UNKNOWN_ID = -1;

export class WriteJournal {
  private readonly createdRules = new Map<string, Remembered<LiveRule>>();
  private readonly createdIp = new Map<string, Remembered<LiveIpEntry>>();
  private readonly deletedRuleIds = new Map<number, number>();
  private readonly deletedIpIds = new Map<number, number>();

  constructor(
    private readonly ttlMs = 120_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.createdRules.size + this.createdIp.size + this.deletedRuleIds.size + this.deletedIpIds.size;
  }

  recordRuleCreated(rule: LiveRule): void {
    this.createdRules.set(ruleKey(rule), { value: rule, at: this.now() });
  }

  recordIpCreated(entries: readonly LiveIpEntry[]): void {
    for (const entry of entries) this.createdIp.set(ipKey(entry), { value: entry, at: this.now() });
  }

  recordRuleDeleted(id: number): void {
    this.deletedRuleIds.set(id, this.now());
  }

  recordIpDeleted(ids: readonly number[]): void {
    for (const id of ids) this.deletedIpIds.set(id, this.now());
  }

  /** The live state as it will be once the listing catches up with our writes. */
  overlay(live: LiveState): LiveState {
    this.forgetExpired();
    const rules = live.rules.filter((rule) => !this.deletedRuleIds.has(rule.id));
    const ipEntries = live.ipEntries.filter((entry) => !this.deletedIpIds.has(entry.id));
    const listedRuleKeys = new Set(live.rules.map(ruleKey));
    const listedIpKeys = new Set(live.ipEntries.map(ipKey));

    for (const [key, { value }] of this.createdRules) {
      if (listedRuleKeys.has(key)) this.createdRules.delete(key);
      else if (live.clients.includes(value.client)) rules.push(value);
    }
    for (const [key, { value }] of this.createdIp) {
      if (listedIpKeys.has(key)) this.createdIp.delete(key);
      else if (live.clients.includes(value.client)) ipEntries.push(value);
    }
    const listedRuleIds = new Set(live.rules.map((rule) => rule.id));
    for (const id of this.deletedRuleIds.keys()) if (!listedRuleIds.has(id)) this.deletedRuleIds.delete(id);
    const listedIpIds = new Set(live.ipEntries.map((entry) => entry.id));
    for (const id of this.deletedIpIds.keys()) if (!listedIpIds.has(id)) this.deletedIpIds.delete(id);
    return { clients: live.clients, rules, ipEntries };
  }

  private forgetExpired(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const map of [this.createdRules, this.createdIp] as Map<string, Remembered<unknown>>[]) {
      for (const [key, { at }] of map) if (at < cutoff) map.delete(key);
    }
    for (const map of [this.deletedRuleIds, this.deletedIpIds]) {
      for (const [id, at] of map) if (at < cutoff) map.delete(id);
    }
  }
}
