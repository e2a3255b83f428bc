import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchPolicyDirectory } from '../../../src/daemon/watch.js';
import { eventually, sleep } from '../../helpers/eventually.js';

const DEBOUNCE_MS = 40;

interface Running {
  calls: string[];
  stop: () => Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-watch-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function startWatching(dir: string): Promise<Running> {
  const calls: string[] = [];
  const controller = new AbortController();
  let ready = false;
  const done = watchPolicyDirectory(dir, (reason) => calls.push(reason), {
    signal: controller.signal,
    debounceMs: DEBOUNCE_MS,
    onReady: () => { ready = true; },
  });
  const stop = async (): Promise<void> => {
    controller.abort();
    await done;
  };
  cleanups.push(stop);
  await eventually(() => ready, 'watcher ready');
  // Starting to watch is not a change.
  await sleep(DEBOUNCE_MS * 3);
  expect(calls).toEqual([]);
  return { calls, stop };
}

/** Waits for the next call after `count`, then for quiet, and returns how many came. */
async function nextCalls(running: Running, count: number): Promise<number> {
  await eventually(() => running.calls.length > count, `change #${count + 1}`);
  await sleep(DEBOUNCE_MS * 5);
  return running.calls.length - count;
}

/** git-sync: a new worktree, a relative link renamed over `repo`, the old worktree deleted. */
async function gitSyncCommit(root: string, from: string | undefined, to: string, files: Record<string, string>): Promise<void> {
  const worktree = path.join(root, '.worktrees', to);
  await mkdir(path.join(worktree, 'policies'), { recursive: true });
  // At once (a commit of 2,000 files, one by one through the thread pool, took a second).
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(worktree, name), text);
  await symlink(path.join('.worktrees', to), path.join(root, 'tmp-link'));
  await rename(path.join(root, 'tmp-link'), path.join(root, 'repo'));
  if (from !== undefined) await rm(path.join(root, '.worktrees', from), { recursive: true, force: true });
}

/** A ConfigMap volume update: new timestamped dir, `..data` swapped by rename, old dir deleted. */
async function configMapUpdate(root: string, from: string | undefined, to: string, files: Record<string, string>): Promise<void> {
  await mkdir(path.join(root, to));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(root, to, name), text);
  await symlink(to, path.join(root, '..data_tmp'));
  await rename(path.join(root, '..data_tmp'), path.join(root, '..data'));
  for (const name of Object.keys(files)) {
    await symlink(path.join('..data', name), path.join(root, name)).catch(() => undefined);
  }
  if (from !== undefined) await rm(path.join(root, from), { recursive: true, force: true });
}

describe('watchPolicyDirectory', () => {
  it('folds a burst of edits in a plain directory into one change', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'a.yaml'), 'version: 1\n');
    const running = await startWatching(dir);

    for (let i = 0; i < 5; i += 1) await writeFile(path.join(dir, `p${i}.yaml`), `n: ${i}\n`);
    await writeFile(path.join(dir, 'a.yaml'), 'version: 2\n');

    expect(await nextCalls(running, 0)).toBe(1);
    expect(running.calls[0]).toMatch(/\.yaml/);
  });

  it('sees files in new subdirectories and ignores dot-files', async () => {
    const dir = await tempDir();
    const running = await startWatching(dir);

    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, '.git', 'HEAD.yaml'), 'x');
    await writeFile(path.join(dir, '.hidden.yaml'), 'x');
    // No waiting for nothing to happen: the next change reported must name only the visible file.
    await mkdir(path.join(dir, 'team'));
    await writeFile(path.join(dir, 'team', 'shop.yml'), 'x');
    expect(await nextCalls(running, 0)).toBe(1);
    expect(running.calls[0]).not.toMatch(/\.git|\.hidden/);
  });

  it('follows a git-sync swap when the policy directory is the link itself', async () => {
    const root = await tempDir();
    await gitSyncCommit(root, undefined, 'aaa', { 'shop.yaml': 'v: 1\n' });
    const running = await startWatching(path.join(root, 'repo'));

    await gitSyncCommit(root, 'aaa', 'bbb', { 'shop.yaml': 'v: 2\n' });
    expect(await nextCalls(running, 0)).toBeGreaterThanOrEqual(1);

    const afterFirst = running.calls.length;
    await gitSyncCommit(root, 'bbb', 'ccc', { 'shop.yaml': 'v: 3\n' });
    expect(await nextCalls(running, afterFirst)).toBeGreaterThanOrEqual(1);

    // The content watcher follows the new worktree too.
    const afterSecond = running.calls.length;
    await writeFile(path.join(root, '.worktrees', 'ccc', 'extra.yaml'), 'v: 4\n');
    expect(await nextCalls(running, afterSecond)).toBe(1);
  });

  it('follows a git-sync swap when the policy directory is under the link', async () => {
    const root = await tempDir();
    await gitSyncCommit(root, undefined, 'aaa', { 'policies/shop.yaml': 'v: 1\n' });
    const running = await startWatching(path.join(root, 'repo', 'policies'));

    await gitSyncCommit(root, 'aaa', 'bbb', { 'policies/shop.yaml': 'v: 2\n' });
    expect(await nextCalls(running, 0)).toBeGreaterThanOrEqual(1);

    const afterFirst = running.calls.length;
    await gitSyncCommit(root, 'bbb', 'ccc', { 'policies/shop.yaml': 'v: 3\n' });
    expect(await nextCalls(running, afterFirst)).toBeGreaterThanOrEqual(1);

    const afterSecond = running.calls.length;
    await writeFile(path.join(root, '.worktrees', 'ccc', 'policies', 'extra.yaml'), 'v: 4\n');
    expect(await nextCalls(running, afterSecond)).toBe(1);
  });

  it('follows a ConfigMap ..data swap', async () => {
    const root = await tempDir();
    await configMapUpdate(root, undefined, '..2024_01_01_12_00_00.1', { 'shop.yaml': 'v: 1\n' });
    const running = await startWatching(root);

    await configMapUpdate(root, '..2024_01_01_12_00_00.1', '..2024_01_01_12_05_00.2', { 'shop.yaml': 'v: 2\n' });
    expect(await nextCalls(running, 0)).toBeGreaterThanOrEqual(1);

    const afterFirst = running.calls.length;
    await configMapUpdate(root, '..2024_01_01_12_05_00.2', '..2024_01_01_12_10_00.3', { 'shop.yaml': 'v: 3\n', 'api.yaml': 'v: 1\n' });
    expect(await nextCalls(running, afterFirst)).toBeGreaterThanOrEqual(1);
  });

  it('reports a missing directory once it appears, and keeps watching it', async () => {
    const root = await tempDir();
    const dir = path.join(root, 'deep', 'policies');
    const running = await startWatching(dir);

    await mkdir(dir, { recursive: true });
    await eventually(() => running.calls.some((c) => c.includes('appeared')), 'appearance reported');

    const count = running.calls.length;
    await writeFile(path.join(dir, 'shop.yaml'), 'v: 1\n');
    await eventually(() => running.calls.length > count && running.calls.at(-1)!.includes('shop.yaml'), 'file change');
  });

  it('reports a directory that is deleted, and its return', async () => {
    const root = await tempDir();
    const dir = path.join(root, 'policies');
    await mkdir(dir);
    await writeFile(path.join(dir, 'shop.yaml'), 'v: 1\n');
    const running = await startWatching(dir);

    await rm(dir, { recursive: true });
    await eventually(() => running.calls.some((c) => c.includes('disappeared')), 'disappearance reported');
    await mkdir(dir);
    await eventually(() => running.calls.some((c) => c.includes('appeared') && !c.includes('disappeared')), 'return reported');
    const count = running.calls.length;
    await writeFile(path.join(dir, 'api.yaml'), 'v: 1\n');
    await eventually(() => running.calls.length > count, 'change in the new directory');
  });

  it('a git-sync swap during its first scan: still gets ready, watches the new worktree, and stops when asked', async () => {
    const root = await tempDir();
    // Enough files that the first scan is still running when the swap lands.
    const notes = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`policies/notes/n${i}.txt`, '']));
    await mkdir(path.join(root, '.worktrees', 'a', 'policies', 'notes'), { recursive: true });
    await gitSyncCommit(root, undefined, 'a', { 'policies/shop.yaml': 'a: 1\n', ...notes });
    const calls: string[] = [];
    const controller = new AbortController();
    let ready = false;
    const done = watchPolicyDirectory(path.join(root, 'repo', 'policies'), (reason) => calls.push(reason), {
      signal: controller.signal,
      debounceMs: DEBOUNCE_MS,
      onReady: () => { ready = true; },
    });
    cleanups.push(async () => {
      controller.abort();
      await done;
    });
    await gitSyncCommit(root, 'a', 'b', { 'policies/shop.yaml': 'b: 1\n' });
    await eventually(() => ready, 'watcher ready');
    const before = calls.length;
    await writeFile(path.join(root, '.worktrees', 'b', 'policies', 'shop.yaml'), 'b: 2\n');
    await eventually(() => calls.slice(before).some((reason) => reason.includes('shop.yaml')), 'the edit in the new worktree');
    controller.abort();
    await done;
  });

  it('resolves when the signal aborts, and at once when it was aborted before', async () => {
    const dir = await tempDir();
    const running = await startWatching(dir);
    await running.stop();
    await writeFile(path.join(dir, 'late.yaml'), 'x');
    await sleep(DEBOUNCE_MS * 3);
    expect(running.calls).toEqual([]);

    const controller = new AbortController();
    controller.abort();
    await watchPolicyDirectory(dir, () => undefined, { signal: controller.signal });
  });
});
