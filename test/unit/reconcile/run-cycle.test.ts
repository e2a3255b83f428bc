/**
 * The cycle as a value (issue 39): `runCycle` takes what was read and what
 * the last cycle left, and returns its outcome and what it leaves the next,
 * with no file system and no state of its own. The last good policies carry
 * over an invalid edit; a pause keeps the time it was first seen.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_CYCLE, runCycle, type CycleInput, type CycleMemory } from '../../../src/reconcile/cycle.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { silentLogger } from '../../../src/log.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import type { PolicyLoadResult } from '../../../src/policy/types.js';
import { runSettings } from '../../../src/reconcile/settings.js';
import { fakeApi } from '../../helpers/fake-api.js';

const VALID = 'version: 1\nclient: 10042\napplication: 7\nrules:\n  - { name: p, type: vpatch, attack: any, point: [[get, q]] }\n';

/** Policy files as read, from texts: no directory on disk. */
function snapshot(text: string, digest: string): PolicyLoadResult {
  const loaded = loadPolicyTexts([{ file: 'policies/shop.yaml', text }]);
  return { root: '/nowhere', exists: true, files: ['policies/shop.yaml'], diagnostics: loaded.diagnostics, ...(loaded.desired ? { desired: loaded.desired } : {}), digest };
}

function input(policy: PolicyLoadResult, more: Partial<CycleInput> = {}): CycleInput {
  return {
    settings: { policies: '/nowhere', api: fakeApi([]), settings: runSettings({ dryRun: true }), journal: new WriteJournal() },
    context: { cycleId: '1-a', reasons: ['resync'], signal: new AbortController().signal, logger: silentLogger() },
    snapshot: { policy },
    ...more,
  };
}

describe('runCycle', () => {
  it('plans from what it is given and leaves the next cycle the last good policies, through an invalid edit', async () => {
    const first = await runCycle(input(snapshot(VALID, 'd1')), FIRST_CYCLE);
    expect(first.outcome).toMatchObject({ result: 'skipped', changes: { create: 1 }, policyValid: true });
    expect(first.memory.lastGood?.digest).toBe('d1');

    const broken = await runCycle(input(snapshot(VALID.replace('attack: any', 'attack: sometimes'), 'd2')), first.memory);
    expect(broken.outcome).toMatchObject({ result: 'invalid', policyValid: false, problems: { count: 1 } });
    // Still planned from the last good policies, and still remembered.
    expect(broken.outcome.plan).toBeDefined();
    expect(broken.memory.lastGood?.digest).toBe('d1');
    // The value given is not changed: the cycle keeps no state of its own.
    expect(first.memory.lastGood?.digest).toBe('d1');
  });

  it('a pause holds the writes and keeps the time it was first seen, across cycles', async () => {
    const policy = snapshot(VALID, 'd1');
    const pause = (since: number) => ({ reason: 'incident', since, by: 'file' as const });
    const live = { ...input(policy), settings: { ...input(policy).settings, settings: runSettings() } };
    const first = await runCycle({ ...live, pause: pause(1_000) }, FIRST_CYCLE);
    expect(first.outcome).toMatchObject({ result: 'paused', pending: { create: 1 } });
    const again: { memory: CycleMemory } = await runCycle({ ...live, pause: pause(5_000) }, first.memory);
    expect(again.memory.pausedSince).toBe(1_000);
    const lifted = await runCycle(live, again.memory);
    expect(lifted.memory.pausedSince).toBeUndefined();
  });

  it('remembers what each listing held even when the plan then fails, for the next read to predict its pages', async () => {
    const blocking = { id: 5, clientid: 10042, type: 'service_mode', mode: 'monitoring', action: [{ point: ['instance'], type: 'equal', value: '7' }] };
    const policy = snapshot('version: 1\nclient: 10042\napplication: 7\nmode: block\n', 'd1');
    const ran = await runCycle({ ...input(policy), settings: { ...input(policy).settings, api: fakeApi([blocking]) } }, FIRST_CYCLE);
    expect(ran.outcome.result).toBe('failed');
    expect(JSON.stringify(ran.outcome.error)).toContain('unmanaged_conflict');
    expect(Object.fromEntries(ran.memory.listed)).toMatchObject({ '10042:rules': 1, '10042:black': 0 });
  });
});
