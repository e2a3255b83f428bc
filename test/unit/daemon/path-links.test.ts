import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolvePathLinks } from '../../../src/daemon/path-links.js';

let root = '';
beforeEach(async () => { root = await realpath(await mkdtemp(path.join(tmpdir(), 'rampart-links-'))); });
afterEach(async () => { await rm(root, { recursive: true, force: true }); });

describe('resolvePathLinks', () => {
  it('resolves a plain directory and anchors its own name', async () => {
    await mkdir(path.join(root, 'policies'));
    expect(await resolvePathLinks(path.join(root, 'policies'))).toEqual({
      realDir: path.join(root, 'policies'),
      anchors: [{ dir: root, name: 'policies' }],
    });
  });

  it('anchors every link on the way: relative, absolute and chained', async () => {
    await mkdir(path.join(root, '.worktrees', 'abc', 'policies'), { recursive: true });
    await symlink('.worktrees/abc', path.join(root, 'repo'));
    await symlink(path.join(root, 'repo'), path.join(root, 'current'));
    const result = await resolvePathLinks(path.join(root, 'current', 'policies'));
    expect(result.realDir).toBe(path.join(root, '.worktrees', 'abc', 'policies'));
    expect(result.anchors).toEqual([
      { dir: root, name: 'current' },
      { dir: root, name: 'repo' },
      { dir: path.join(root, '.worktrees', 'abc'), name: 'policies' },
    ]);
  });

  it('follows a ConfigMap ..data link used inside the path', async () => {
    await mkdir(path.join(root, '..2024_01_01'));
    await symlink('..2024_01_01', path.join(root, '..data'));
    const result = await resolvePathLinks(path.join(root, '..data'));
    expect(result.realDir).toBe(path.join(root, '..2024_01_01'));
    expect(result.anchors[0]).toEqual({ dir: root, name: '..data' });
  });

  it('reports a missing directory with the first missing component as anchor', async () => {
    expect(await resolvePathLinks(path.join(root, 'a', 'b', 'c'))).toEqual({
      realDir: null,
      anchors: [{ dir: root, name: 'a' }],
    });
  });

  it('reports a dangling link and a file where a directory should be as missing', async () => {
    await symlink('.worktrees/gone', path.join(root, 'repo'));
    const dangling = await resolvePathLinks(path.join(root, 'repo'));
    expect(dangling.realDir).toBeNull();
    expect(dangling.anchors).toContainEqual({ dir: root, name: 'repo' });

    await writeFile(path.join(root, 'file'), 'x');
    expect((await resolvePathLinks(path.join(root, 'file', 'sub'))).realDir).toBeNull();
    expect((await resolvePathLinks(path.join(root, 'file'))).realDir).toBeNull();
  });

  it('stops on a link loop without throwing', async () => {
    await symlink('loop-b', path.join(root, 'loop-a'));
    await symlink('loop-a', path.join(root, 'loop-b'));
    expect((await resolvePathLinks(path.join(root, 'loop-a'))).realDir).toBeNull();
  });
});
