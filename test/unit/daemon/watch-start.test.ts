/**
 * The watch's start-up with watchers whose first scan the test ends (or
 * never ends): the bound on a scan, a stop during one, and moves of the
 * watcher that wait for each other. The clock is a manual scheduler; the
 * directories are real (the watch resolves their links itself).
 */
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, realpath, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { watchPolicyDirectory, type PathWatcher, type StartWatcher } from '../../../src/daemon/watch.js';
import { eventually } from '../../helpers/eventually.js';
import { ManualScheduler } from '../../helpers/manual-scheduler.js';

/** A watcher that reports its first scan only when the test says so, and never once closed (as chokidar). */
class ScriptedWatcher extends EventEmitter implements PathWatcher {
  closed = false;

  constructor(readonly paths: readonly string[]) {
    super();
  }

  scanned(): void {
    if (!this.closed) this.emit('ready');
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function scriptedWatchers(): { started: ScriptedWatcher[]; startWatcher: StartWatcher } {
  const started: ScriptedWatcher[] = [];
  const startWatcher: StartWatcher = (paths) => {
    const watcher = new ScriptedWatcher(typeof paths === 'string' ? [paths] : paths);
    started.push(watcher);
    return watcher;
  };
  return { started, startWatcher };
}

function captureLogger(): { logger: pino.Logger; messages: string[] } {
  const messages: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => { messages.push((JSON.parse(line) as { msg: string }).msg); } });
  return { logger, messages };
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'rampart-watch-start-'));
  roots.push(root);
  return root;
}

/** git-sync's layout: `repo` links to `.worktrees/<name>`, which holds `policies/`. */
async function commit(root: string, name: string): Promise<void> {
  await mkdir(path.join(root, '.worktrees', name, 'policies'), { recursive: true });
  await symlink(path.join('.worktrees', name), path.join(root, 'tmp-link'));
  await rename(path.join(root, 'tmp-link'), path.join(root, 'repo'));
}

describe('watchPolicyDirectory, starting', () => {
  it('goes on without a first scan that never ends after 10 s, says so, and reports changes', async () => {
    const dir = await tempRoot();
    const { started, startWatcher } = scriptedWatchers();
    const { logger, messages } = captureLogger();
    const scheduler = new ManualScheduler();
    const changes: string[] = [];
    let ready = false;
    const controller = new AbortController();
    const done = watchPolicyDirectory(dir, (reason) => changes.push(reason), {
      signal: controller.signal, debounceMs: 50, scheduler, logger, startWatcher, onReady: () => { ready = true; },
    });
    try {
      // The anchor watcher (on the directory holding the policy directory) finishes its scan; the content watcher never does.
      await eventually(() => started.length === 1, 'the anchor watcher');
      started[0]!.scanned();
      await eventually(() => started.length === 2 && scheduler.waiting.length === 1, 'the content watcher scanning');
      scheduler.advance(9_999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(ready).toBe(false);
      scheduler.advance(1);
      await eventually(() => ready, 'ready without the scan');
      expect(messages).toContain('first scan of a watched directory not finished; watching it anyway');

      started[1]!.emit('all', 'change', path.join(dir, 'shop.yaml'));
      scheduler.advance(50);
      await eventually(() => changes.length === 1, 'the change reported');
      expect(changes[0]).toContain('shop.yaml');
    } finally {
      controller.abort();
      await done;
    }
    expect(started.every((watcher) => watcher.closed)).toBe(true);
  });

  it('ends at once when stopped during a first scan, closing the watcher', async () => {
    const dir = await tempRoot();
    const { started, startWatcher } = scriptedWatchers();
    const controller = new AbortController();
    let ready = false;
    const done = watchPolicyDirectory(dir, () => undefined, {
      signal: controller.signal, scheduler: new ManualScheduler(), startWatcher, onReady: () => { ready = true; },
    });
    await eventually(() => started.length === 1, 'the first watcher scanning');
    controller.abort();
    await done;
    expect(started[0]!.closed).toBe(true);
    expect(started).toHaveLength(1);
    expect(ready).toBe(true);
  });

  it('moves to a new worktree only after the move before it is done, so no scan is waited for on a closed watcher', async () => {
    const root = await tempRoot();
    await commit(root, 'a');
    const { started, startWatcher } = scriptedWatchers();
    const scheduler = new ManualScheduler();
    const controller = new AbortController();
    let ready = false;
    const done = watchPolicyDirectory(path.join(root, 'repo', 'policies'), () => undefined, {
      signal: controller.signal, debounceMs: 50, scheduler, startWatcher, onReady: () => { ready = true; },
    });
    try {
      // The anchor watcher (on the directory holding `repo`) finishes its scan; the content watcher of `a` is scanning.
      await eventually(() => started.length === 1, 'the anchor watcher');
      const [anchors] = started;
      anchors!.scanned();
      await eventually(() => started.length === 2, 'the content watcher of a');
      const contentOfA = started[1]!;
      expect(contentOfA.paths[0]).toContain(path.join('.worktrees', 'a'));

      // git-sync swaps `repo` to `b` while `a` is still scanning; the anchor watcher sees it.
      await commit(root, 'b');
      // The watch names the root by its real path (the temporary directory may be under a link).
      anchors!.emit('all', 'add', path.join(await realpath(root), 'repo'));
      scheduler.advance(50);
      // The move it asks for waits for the first one: no watcher closed, none started (give the file system time to answer).
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started).toHaveLength(2);
      expect(contentOfA.closed).toBe(false);

      // Once `a`'s scan ends, the first move goes on to `b`: new anchors (`b`'s `policies`), then `b`'s content.
      contentOfA.scanned();
      await eventually(() => started.length === 3, 'the anchor watcher of b');
      expect(anchors!.closed).toBe(true);
      started[2]!.scanned();
      await eventually(() => started.length === 4, 'the content watcher of b');
      expect(contentOfA.closed).toBe(true);
      expect(started[3]!.paths[0]).toContain(path.join('.worktrees', 'b'));
      started[3]!.scanned();
      await eventually(() => ready, 'ready');
      // The move the swap asked for found nothing left to do: no other watcher was started.
      scheduler.advance(50);
      await new Promise((resolve) => setImmediate(resolve));
      expect(started).toHaveLength(4);
    } finally {
      controller.abort();
      await done;
    }
  });
});
