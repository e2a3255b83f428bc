import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadState, Persister, serializeState } from '../../../src/emulator/persistence.js';
import { emptyState } from '../../../src/emulator/store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-persister-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Persister', () => {
  it('coalesces flushes that arrive during a write into one more write', async () => {
    const file = join(dir, 's.json');
    let snapshots = 0;
    let version = 0;
    const persister = new Persister(file, () => {
      snapshots++;
      return JSON.stringify({ version });
    });
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      version = i;
      persister.markDirty();
      flushes.push(persister.flush());
    }
    await Promise.all(flushes);
    expect(snapshots).toBeLessThanOrEqual(2);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 19 });
  });

  it('does nothing when nothing changed', async () => {
    let snapshots = 0;
    const persister = new Persister(join(dir, 's.json'), () => String(++snapshots));
    await persister.flush();
    expect(snapshots).toBe(0);
  });

  it('round-trips the state', async () => {
    const state = emptyState();
    state.nextIds.hint = 9;
    state.clockOffsetMs = 5000;
    const file = join(dir, 'state.json');
    const persister = new Persister(file, () => serializeState(state));
    persister.markDirty();
    await persister.flush();
    const loaded = await loadState(file);
    expect(loaded.nextIds.hint).toBe(9);
    expect(loaded.clockOffsetMs).toBe(5000);
    expect(await loadState(join(dir, 'missing.json'))).toEqual(emptyState());
  });
});
