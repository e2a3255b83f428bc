/**
 * Remembers Rampart's own recent writes so that a lagging listing (api-notes:
 * about 3 s) never causes a duplicate create or a repeated delete. Before each
 * plan the live state is overlaid: what we created but is not listed yet counts
 * as present; what we deleted but is still listed counts as gone. An entry is
 * forgotten once the listing agrees with it, or after `ttlMs`.
 *
 * A create is remembered by what was written, not by its identity: its id once
 * known, and before that the fingerprint its mark carries. An older object of
 * the same identity still listed (the rule it replaced, say) never stands in
 * for it, and an object the service stored differently is still recognized.
 */
import { listedIpWriteKey, ipWriteKey } from '../model/ip-fingerprint.js';
import { listedRuleWriteKey, ruleWriteKey } from '../model/rule-fingerprint.js';
import type { LiveIpEntry } from '../model/ip.js';
import type { LiveRule } from '../model/rule.js';
import type { LiveState } from '../model/state.js';

interface Remembered<T> {
  readonly value: T;
  readonly at: number;
  /**
   * Read back from an intent without its completion: the process was killed
   * with the create in flight. Counted as made until the listing shows it or
   * `uncertainMs` pass; `unconfirmedUntil` tells a rerun how long to wait.
   */
  readonly uncertain?: boolean;
}

/** Ids below zero stand for objects whose real id we do not know yet; they are never deleted. */
export const UNKNOWN_ID = -1;

/** One remembered write, as appended to a journal file (one JSON line each). */
export type JournalEvent =
  | { readonly kind: 'rule-created'; readonly at: number; readonly rule: LiveRule }
  | { readonly kind: 'ip-created'; readonly at: number; readonly entries: readonly LiveIpEntry[] }
  | { readonly kind: 'rule-deleted'; readonly at: number; readonly ids: readonly number[] }
  | { readonly kind: 'ip-deleted'; readonly at: number; readonly ids: readonly number[] }
  /**
   * Written before a create is sent. A process killed with the call in flight
   * cannot know whether it landed; read back without its completion, the create
   * counts as made for `uncertainMs` (longer than the listing lag), after which
   * the listing decides.
   */
  | { readonly kind: 'rule-create-intent'; readonly at: number; readonly rule: LiveRule }
  | { readonly kind: 'ip-create-intent'; readonly at: number; readonly entries: readonly LiveIpEntry[] }
  /** The create the intent announced was refused: it did not happen (write keys, model/fingerprint.ts). */
  | { readonly kind: 'create-abandoned'; readonly at: number; readonly keys: readonly string[] };

export class WriteJournal {
  /** Told of every write as it is recorded; a journal file appends it. */
  sink?: (event: JournalEvent) => void;
  private readonly createdRules = new Map<string, Remembered<LiveRule>>();
  private readonly createdIp = new Map<string, Remembered<LiveIpEntry>>();
  private readonly deletedRuleIds = new Map<number, number>();
  private readonly deletedIpIds = new Map<number, number>();

  constructor(
    private readonly ttlMs = 120_000,
    private readonly now: () => number = Date.now,
    private readonly uncertainMs = 15_000,
  ) {}

  get size(): number {
    return this.createdRules.size + this.createdIp.size + this.deletedRuleIds.size + this.deletedIpIds.size;
  }

  recordRuleCreated(rule: LiveRule): void {
    this.replay({ kind: 'rule-created', at: this.now(), rule });
  }

  recordIpCreated(entries: readonly LiveIpEntry[]): void {
    this.replay({ kind: 'ip-created', at: this.now(), entries });
  }

  recordRuleDeleted(id: number): void {
    this.replay({ kind: 'rule-deleted', at: this.now(), ids: [id] });
  }

  recordIpDeleted(ids: readonly number[]): void {
    this.replay({ kind: 'ip-deleted', at: this.now(), ids });
  }

  /** Before a create is sent: only the journal file needs it (see JournalEvent). */
  recordCreateIntent(event: Extract<JournalEvent, { kind: 'rule-create-intent' | 'ip-create-intent' }>): void {
    this.sink?.(event);
  }

  /** A create refused outright: its intent must not count as a write on a rerun. */
  recordCreateAbandoned(keys: readonly string[]): void {
    this.replay({ kind: 'create-abandoned', at: this.now(), keys });
  }

  /** Records an event: a new write, or one read back from a journal file. */
  replay(event: JournalEvent, fromFile = false): void {
    if (event.kind === 'rule-create-intent' || event.kind === 'ip-create-intent') {
      // Backdated so it expires `uncertainMs` after the intent; a completion read later replaces it.
      const at = event.at - (this.ttlMs - this.uncertainMs);
      if (at < this.now() - this.ttlMs) return;
      if (event.kind === 'rule-create-intent') this.createdRules.set(ruleWriteKey(event.rule), { value: event.rule, at, uncertain: true });
      else for (const entry of event.entries) this.createdIp.set(ipWriteKey(entry), { value: entry, at, uncertain: true });
      return;
    }
    if (event.kind === 'create-abandoned') {
      for (const key of event.keys) {
        if (this.createdRules.get(key)?.uncertain) this.createdRules.delete(key);
        if (this.createdIp.get(key)?.uncertain) this.createdIp.delete(key);
      }
      if (!fromFile) this.sink?.(event);
      return;
    }
    if (event.at < this.now() - this.ttlMs) return;
    if (event.kind === 'rule-created') this.createdRules.set(ruleWriteKey(event.rule), { value: event.rule, at: event.at });
    else if (event.kind === 'ip-created') for (const entry of event.entries) this.createdIp.set(ipWriteKey(entry), { value: entry, at: event.at });
    else if (event.kind === 'rule-deleted') for (const id of event.ids) this.deletedRuleIds.set(id, event.at);
    else for (const id of event.ids) this.deletedIpIds.set(id, event.at);
    if (!fromFile) this.sink?.(event);
  }

  /**
   * How long until the last create whose outcome a killed process never
   * heard stops counting as made (ms), or undefined when there is none. A rerun
   * that plans before then would take a create that never happened as done; it
   * waits and reads the listing again instead (reconcile/prepare.ts).
   */
  unconfirmedForMs(): number | undefined {
    this.forgetExpired();
    let until: number | undefined;
    for (const map of [this.createdRules, this.createdIp] as Map<string, Remembered<unknown>>[]) {
      for (const { at, uncertain } of map.values()) {
        if (uncertain) until = Math.max(until ?? 0, at + this.ttlMs);
      }
    }
    return until === undefined ? undefined : Math.max(0, until - this.now());
  }

  /** Every write still remembered, oldest first: what a compacted journal file holds. */
  events(): JournalEvent[] {
    this.forgetExpired();
    const undated = (at: number) => at + (this.ttlMs - this.uncertainMs);
    const events: JournalEvent[] = [
      ...[...this.createdRules.values()].map(({ value, at, uncertain }) => (uncertain
        ? { kind: 'rule-create-intent' as const, at: undated(at), rule: value }
        : { kind: 'rule-created' as const, at, rule: value })),
      ...[...this.createdIp.values()].map(({ value, at, uncertain }) => (uncertain
        ? { kind: 'ip-create-intent' as const, at: undated(at), entries: [value] }
        : { kind: 'ip-created' as const, at, entries: [value] })),
      ...[...this.deletedRuleIds].map(([id, at]) => ({ kind: 'rule-deleted' as const, at, ids: [id] })),
      ...[...this.deletedIpIds].map(([id, at]) => ({ kind: 'ip-deleted' as const, at, ids: [id] })),
    ];
    return events.sort((a, b) => a.at - b.at);
  }

  /** The live state as it will be once the listing catches up with our writes. */
  overlay(live: LiveState): LiveState {
    this.forgetExpired();
    // A daemon in step remembers no write: its listing is the state, without indexing 60k objects every cycle.
    if (this.size === 0) return live;
    const rules = live.rules.filter((rule) => !this.deletedRuleIds.has(rule.id));
    const ipEntries = live.ipEntries.filter((entry) => !this.deletedIpIds.has(entry.id));
    const listedRules = new Map(live.rules.map((rule) => [rule.id, rule]));
    const listedRuleKeys = new Set(live.rules.flatMap((rule) => listedRuleWriteKey(rule) ?? []));
    const listedIpKeys = new Set(live.ipEntries.flatMap((entry) => listedIpWriteKey(entry) ?? []));

    for (const [key, { value }] of this.createdRules) {
      const listed = value.id >= 0 ? listedRules.get(value.id) : undefined;
      if (listedRuleKeys.has(key) || (listed && listed.owner !== undefined && listed.fingerprint === undefined)) {
        this.createdRules.delete(key);
      } else if (listed) {
        // Updated in place, listed as it was before: the listing lags, the write stands.
        const at = rules.indexOf(listed);
        if (at >= 0) rules[at] = value;
      } else if (live.clients.includes(value.client)) rules.push(value);
    }
    for (const [key, { value }] of this.createdIp) {
      if (listedIpKeys.has(key)) this.createdIp.delete(key);
      else if (live.clients.includes(value.client)) ipEntries.push(value);
    }
    for (const id of this.deletedRuleIds.keys()) if (!listedRules.has(id)) this.deletedRuleIds.delete(id);
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
