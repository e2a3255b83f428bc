import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournalFile } from '../../../src/live/journal-file.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { ruleWriteKey, ruleFingerprint } from '../../../src/model/rule-fingerprint.js';
import type { LiveIpEntry } from '../../../src/model/ip.js';
import type { LiveRule } from '../../../src/model/rule.js';
import type { LiveState } from '../../../src/model/state.js';
import type { Logger } from '../../../src/log.js';

const rule: LiveRule = {
  id: 41, client: 1, kind: 'mode', fields: { mode: 'block' }, point: [], owner: 'rampart',
  conditions: [{ point: ['instance'], type: 'equal', value: '7' }],
};
const entry: LiveIpEntry = {
  id: 9, client: 1, list: 'black', ruleType: 'country', value: 'KP', pools: [7], expiresAt: 33223139044, objectSize: 1, owner: 'rampart',
};
const empty: LiveState = { clients: [1], rules: [], ipEntries: [] };

describe('WriteJournal', () => {
  it('counts a created rule the listing does not show yet, and forgets it once listed', () => {
    const journal = new WriteJournal();
    journal.recordCreated('rule', [rule]);
    expect(journal.overlay(empty).rules).toEqual([rule]);
    const listed = { ...empty, rules: [rule] };
    expect(journal.overlay(listed).rules).toEqual([rule]);
    expect(journal.size).toBe(0);
  });

  it('hides a deleted object the listing still shows', () => {
    const journal = new WriteJournal();
    journal.recordDeleted('ip', [9]);
    journal.recordDeleted('rule', [41]);
    const stale = { ...empty, rules: [rule], ipEntries: [entry] };
    expect(journal.overlay(stale)).toEqual(empty);
  });

  it('forgets writes after its time to live', () => {
    let now = 1_000_000;
    const journal = new WriteJournal(10_000, () => now);
    journal.recordCreated('ip', [entry]);
    now += 10_001;
    expect(journal.overlay(empty).ipEntries).toEqual([]);
  });

  it('gives the listing back as it is while it remembers no write', () => {
    const journal = new WriteJournal();
    const listed = { ...empty, rules: [rule], ipEntries: [entry] };
    expect(journal.overlay(listed)).toBe(listed);
    journal.recordDeleted('ip', [9]);
    expect(journal.overlay(listed)).toEqual({ ...listed, ipEntries: [] });
  });

  it('ignores clients the read did not cover', () => {
    const journal = new WriteJournal();
    journal.recordCreated('rule', [{ ...rule, client: 2 }]);
    expect(journal.overlay(empty).rules).toEqual([]);
  });
});

describe('journal file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-journal-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('remembers writes across a restart', async () => {
    const file = join(dir, 'state', 'journal.jsonl');
    const first = openJournalFile(file);
    first.recordCreated('rule', [rule]);
    first.recordDeleted('ip', [9]);
    const second = openJournalFile(file);
    expect(second.overlay({ ...empty, ipEntries: [entry] })).toEqual({ clients: [1], rules: [rule], ipEntries: [] });
  });

  it('treats a create in flight at the kill as made, for a short while only', async () => {
    const file = join(dir, 'journal.jsonl');
    let now = 5_000_000;
    const killed = openJournalFile(file, { now: () => now });
    killed.recordCreateIntent('rule', [{ ...rule, id: -1 }]);
    const restarted = openJournalFile(file, { now: () => now });
    expect(restarted.overlay(empty).rules).toHaveLength(1);
    now += 16_000;
    expect(openJournalFile(file, { now: () => now }).overlay(empty).rules).toEqual([]);
  });

  it('a completed create outlasts its intent', async () => {
    const file = join(dir, 'journal.jsonl');
    let now = 5_000_000;
    const journal = openJournalFile(file, { now: () => now });
    journal.recordCreateIntent('rule', [{ ...rule, id: -1 }]);
    journal.recordCreated('rule', [rule]);
    now += 16_000;
    expect(openJournalFile(file, { now: () => now }).overlay(empty).rules).toEqual([rule]);
  });

  it('a create refused outright does not count as made on a rerun', async () => {
    const file = join(dir, 'journal.jsonl');
    const now = 5_000_000;
    const run = openJournalFile(file, { now: () => now });
    const written = { ...rule, id: -1 };
    run.recordCreateIntent('rule', [written]);
    run.recordCreateAbandoned([ruleWriteKey(written)]);
    const rerun = openJournalFile(file, { now: () => now });
    expect(rerun.overlay(empty).rules).toEqual([]);
    expect(rerun.unconfirmedForMs()).toBeUndefined();
  });

  it('tells a rerun how long a create in flight at the kill stays unconfirmed, until the listing shows it', async () => {
    const file = join(dir, 'journal.jsonl');
    let now = 5_000_000;
    const written = { ...rule, id: -1, fingerprint: ruleFingerprint(rule) };
    openJournalFile(file, { now: () => now }).recordCreateIntent('rule', [written]);
    now += 5_000;
    const rerun = openJournalFile(file, { now: () => now });
    expect(rerun.unconfirmedForMs()).toBe(10_000);
    // The listing shows the rule with the mark's fingerprint: confirmed.
    rerun.overlay({ ...empty, rules: [{ ...rule, id: 77, fingerprint: ruleFingerprint(rule) }] });
    expect(rerun.unconfirmedForMs()).toBeUndefined();
  });

  it('an older rule of the same identity still listed never stands in for a new create', () => {
    const journal = new WriteJournal();
    const created = { ...rule, id: 90, comment: 'new', fingerprint: ruleFingerprint({ ...rule, comment: 'new' }) };
    journal.recordCreated('rule', [created]);
    const old = { ...rule, id: 41, comment: 'old', fingerprint: ruleFingerprint({ ...rule, comment: 'old' }) };
    expect(journal.overlay({ ...empty, rules: [old] }).rules).toEqual([old, created]);
  });

  it('skips a line cut short by a kill and compacts the file on open', async () => {
    const file = join(dir, 'journal.jsonl');
    const now = Date.now();
    await writeFile(file, `${JSON.stringify({ kind: 'ip-deleted', at: now, ids: [9] })}\n{"kind":"rule-cre`);
    const journal = openJournalFile(file);
    expect(journal.overlay({ ...empty, ipEntries: [entry] }).ipEntries).toEqual([]);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('reads and writes the file as earlier versions did, and skips a line of a class it does not know', async () => {
    const file = join(dir, 'journal.jsonl');
    const now = Date.now();
    const lines = [
      { kind: 'rule-created', at: now, rule },
      { kind: 'ip-created', at: now, entries: [{ ...entry, id: 10, value: 'IR' }] },
      { kind: 'rule-deleted', at: now, ids: [40] },
      { kind: 'ip-deleted', at: now, ids: [9] },
      { kind: 'banner-created', at: now, banners: [] },
    ];
    await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown) => warnings.push(fields), info: () => undefined } as unknown as Logger;
    const journal = openJournalFile(file, { logger });
    expect(warnings).toEqual([{ file, skipped: 1 }]);
    const listed = { ...empty, rules: [{ ...rule, id: 40 }], ipEntries: [entry] };
    expect(journal.overlay(listed)).toEqual({ clients: [1], rules: [rule], ipEntries: [{ ...entry, id: 10, value: 'IR' }] });
    expect((await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(lines.slice(0, 4));
  });
});
