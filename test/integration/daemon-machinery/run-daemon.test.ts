import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { shownPlan } from '../../helpers/shown-plan.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonMetrics, startDaemon, type CycleContext } from '../../../src/daemon/index.js';
import { eventually } from '../../helpers/eventually.js';

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function commit(from: string | undefined, to: string): Promise<void> {
  await mkdir(path.join(root, '.worktrees', to, 'policies'), { recursive: true });
  await writeFile(path.join(root, '.worktrees', to, 'policies', 'shop.yaml'), `version: 1 # ${to}\n`);
  await symlink(`.worktrees/${to}`, path.join(root, 'tmp'));
  await rename(path.join(root, 'tmp'), path.join(root, 'repo'));
  if (from) await rm(path.join(root, '.worktrees', from), { recursive: true });
}

describe('startDaemon', () => {
  it('wires watcher → loop → endpoints, and stops gracefully after the running cycle', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'rampart-daemon-'));
    await commit(undefined, 'aaa');
    const cycles: CycleContext[] = [];
    let hold: (() => void) | undefined;
    const controller = new AbortController();
    const daemon = await startDaemon({
      dir: path.join(root, 'repo', 'policies'),
      intervalMs: 60_000,
      debounceMs: 30,
      listen: '127.0.0.1:0',
      signal: controller.signal,
      metrics: new DaemonMetrics({ processMetrics: false }),
      cycle: async (ctx) => {
        cycles.push(ctx);
        if (hold) await new Promise<void>((resolve) => { hold = resolve; });
        return { result: 'success', changes: { create: 1, delete: 0 }, plan: shownPlan({ reasons: ctx.reasons }) };
      },
    });
    const url = daemon.url!;
    await eventually(() => daemon.loop.everSucceeded, 'initial cycle');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // The plan, and the cycle that made it.
    expect(await (await fetch(`${url}/plan`)).json()).toEqual({
      reasons: ['initial'],
      cycle: expect.objectContaining({ id: cycles[0]!.cycleId, result: 'success', status: 'applied' }),
    });

    // A git-sync commit requests a cycle.
    await daemon.watching;
    await eventually(() => cycles.length === 1 && !daemon.loop.running, 'idle');
    await commit('aaa', 'bbb');
    await eventually(() => cycles.length === 2, 'cycle after the swap');
    expect(cycles[1]!.reasons.join(' ')).not.toContain('resync');
    await eventually(() => !daemon.loop.running, 'idle again');

    // Stop while a cycle is in flight: done waits for it, and the endpoints close after.
    hold = () => undefined;
    await commit('bbb', 'ccc');
    await eventually(() => cycles.length === 3 && daemon.loop.running, 'third cycle running');
    controller.abort();
    let finished = false;
    void daemon.done.then(() => { finished = true; });
    // Held by the running cycle: whatever was due has run, and the daemon is still winding down.
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    expect(cycles[2]!.signal.aborted).toBe(true);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    hold();
    await daemon.done;
    expect(daemon.loop.lastOutcome?.result).toBe('success');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('starts the first cycle once the watcher is in place: an edit right after its read is seen', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'rampart-daemon-'));
    await commit(undefined, 'aaa');
    // Enough files that the watcher's first scan takes a while.
    const notes = path.join(root, '.worktrees', 'aaa', 'policies', 'notes');
    await mkdir(notes);
    await Promise.all(Array.from({ length: 2000 }, (_, i) => writeFile(path.join(notes, `n${i}.txt`), '')));
    const cycles: CycleContext[] = [];
    const controller = new AbortController();
    const daemon = await startDaemon({
      dir: path.join(root, 'repo', 'policies'),
      intervalMs: 60_000,
      debounceMs: 30,
      signal: controller.signal,
      metrics: new DaemonMetrics({ processMetrics: false }),
      cycle: async (ctx) => {
        cycles.push(ctx);
        // A policy changes just after this cycle read it.
        if (cycles.length === 1) await writeFile(path.join(root, 'repo', 'policies', 'shop.yaml'), 'version: 1 # edited\n');
        return { result: 'success', changes: { create: 0, delete: 0 } };
      },
    });
    try {
      await eventually(() => cycles.length === 2, 'a cycle for the edit made during the first', 5000);
      expect(cycles[1]!.reasons.join(' ')).not.toContain('resync');
    } finally {
      controller.abort();
      await daemon.done;
    }
  });

  it('rejects, starting nothing, when the address is invalid', async () => {
    await expect(startDaemon({
      dir: tmpdir(), intervalMs: 1000, listen: 'nonsense', signal: new AbortController().signal,
      cycle: async () => ({ result: 'no-op' }),
    })).rejects.toThrow(/invalid listen address/);
  });
});
