import { mkdir, mkdtemp, readdir, realpath, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotUnstableError } from '../../../src/errors.js';
import { readConsistentSnapshot } from '../../../src/reconcile/snapshot.js';

let root = '';

afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function setup(): Promise<string> {
  root = await mkdtemp(path.join(tmpdir(), 'rampart-snap-'));
  for (const name of ['aaa', 'bbb', 'ccc']) await mkdir(path.join(root, '.worktrees', name), { recursive: true });
  await symlink('.worktrees/aaa', path.join(root, 'repo'));
  return path.join(root, 'repo');
}

async function swapTo(name: string): Promise<void> {
  await symlink(`.worktrees/${name}`, path.join(root, 'tmp'));
  await rename(path.join(root, 'tmp'), path.join(root, 'repo'));
}

/** A loader like the real one: resolves the root once, then reads under it. */
async function load(dir: string): Promise<{ root: string; files: string[] }> {
  const real = await realpath(dir);
  return { root: real, files: await readdir(real) };
}

describe('readConsistentSnapshot', () => {
  it('returns the first read when nothing moves', async () => {
    const dir = await setup();
    let reads = 0;
    const result = await readConsistentSnapshot(dir, async (d) => { reads += 1; return load(d); });
    expect(reads).toBe(1);
    expect(result.root).toBe(await realpath(path.join(root, '.worktrees', 'aaa')));
  });

  it('reads again when the link is swapped during the read, and returns the new root', async () => {
    const dir = await setup();
    let reads = 0;
    const result = await readConsistentSnapshot(dir, async (d) => {
      reads += 1;
      const snapshot = await load(d);
      if (reads === 1) await swapTo('bbb');
      return snapshot;
    });
    expect(reads).toBe(2);
    expect(result.root).toBe(await realpath(path.join(root, '.worktrees', 'bbb')));
  });

  it('retries a read that failed because the old version was deleted mid-read', async () => {
    const dir = await setup();
    let reads = 0;
    const result = await readConsistentSnapshot(dir, async (d) => {
      reads += 1;
      if (reads === 1) {
        await swapTo('bbb');
        await rm(path.join(root, '.worktrees', 'aaa'), { recursive: true });
        throw Object.assign(new Error('ENOENT: gone'), { code: 'ENOENT' });
      }
      return load(d);
    });
    expect(reads).toBe(2);
    expect(result.root).toMatch(/bbb$/);
  });

  it('rethrows a loader error when nothing moved', async () => {
    const dir = await setup();
    await expect(readConsistentSnapshot(dir, async () => { throw new Error('bad yaml'); })).rejects.toThrow('bad yaml');
  });

  it('gives up with a clear error when the link never holds still', async () => {
    const dir = await setup();
    const names = ['bbb', 'ccc'];
    let reads = 0;
    const attempt = readConsistentSnapshot(dir, async (d) => {
      const snapshot = await load(d);
      await swapTo(names[reads++ % 2]!);
      return snapshot;
    }, { attempts: 3 });
    await expect(attempt).rejects.toBeInstanceOf(SnapshotUnstableError);
    await expect(attempt).rejects.toThrow(/kept changing while it was read \(3 attempts/);
    expect(reads).toBe(3);
  });

  it('lets the loader decide about a missing directory', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'rampart-snap-'));
    const missing = path.join(root, 'nope');
    const result = await readConsistentSnapshot(missing, async (d) => ({ root: d, files: [] as string[] }));
    expect(result).toEqual({ root: missing, files: [] });
  });
});
