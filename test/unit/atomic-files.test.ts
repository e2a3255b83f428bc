/**
 * Writing policy files all or nothing: a full disk, a failure on the second of
 * two files, a file changed since it was read and two writers at once all
 * leave every file as it was, with an error that names the file; a link stays
 * a link.
 */
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically, type WriteCalls } from '../../src/atomic-files.js';
import { FileError } from '../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fsCalls: WriteCalls = { writeFile: (path, text, options) => writeFile(path, text, options), rename: async (from, to) => (await import('node:fs/promises')).rename(from, to) };

async function files(): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)));
}

describe('writing files all or nothing', () => {
  it('writes every file, new ones included, and leaves no temporary or lock behind', async () => {
    await writeFile(join(dir, 'a.yaml'), 'old a');
    await writeFilesAtomically([{ path: join(dir, 'a.yaml'), text: 'new a', read: 'old a' }, { path: join(dir, 'b.yaml'), text: 'new b' }]);
    expect(await files()).toEqual({ 'a.yaml': 'new a', 'b.yaml': 'new b' });
  });

  it('a full disk leaves the old file intact and nothing else', async () => {
    await writeFile(join(dir, 'a.yaml'), 'old a');
    const full: WriteCalls = { ...fsCalls, writeFile: () => Promise.reject(Object.assign(new Error('no space'), { code: 'ENOSPC' })) };
    const write = writeFilesAtomically([{ path: join(dir, 'a.yaml'), text: 'new a', read: 'old a' }], full);
    await expect(write).rejects.toBeInstanceOf(FileError);
    await expect(write).rejects.toThrow(/cannot write .*a\.yaml \(ENOSPC\): nothing was changed/);
    expect(await files()).toEqual({ 'a.yaml': 'old a' });
  });

  it('when the second file cannot be written, the first is not changed either', async () => {
    await writeFile(join(dir, 'a.yaml'), 'old a');
    await writeFile(join(dir, 'b.yaml'), 'old b');
    let renames = 0;
    const second: WriteCalls = { ...fsCalls, rename: async (from, to) => (++renames === 2 ? Promise.reject(Object.assign(new Error('io'), { code: 'EIO' })) : fsCalls.rename(from, to)) };
    await expect(writeFilesAtomically([
      { path: join(dir, 'a.yaml'), text: 'new a', read: 'old a' },
      { path: join(dir, 'b.yaml'), text: 'new b', read: 'old b' },
    ], second)).rejects.toThrow(/cannot write .*b\.yaml \(EIO\): nothing was changed/);
    expect(await files()).toEqual({ 'a.yaml': 'old a', 'b.yaml': 'old b' });
  });

  it('a file changed since it was read is refused, never overwritten', async () => {
    await writeFile(join(dir, 'a.yaml'), 'edited meanwhile');
    await expect(writeFilesAtomically([{ path: join(dir, 'a.yaml'), text: 'new a', read: 'old a' }])).rejects.toThrow(/changed since it was read/);
    expect(await files()).toEqual({ 'a.yaml': 'edited meanwhile' });
  });

  it('two writers at once: one writes, the other is refused; no rule is lost silently', async () => {
    await writeFile(join(dir, 'a.yaml'), 'old');
    const results = await Promise.allSettled([
      writeFilesAtomically([{ path: join(dir, 'a.yaml'), text: 'old + run 1', read: 'old' }]),
      writeFilesAtomically([{ path: join(dir, 'a.yaml'), text: 'old + run 2', read: 'old' }]),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(String(refused?.reason)).toMatch(/being written by another run|changed since it was read/);
    expect(['old + run 1', 'old + run 2']).toContain((await files())['a.yaml']);
  });

  it('writes through a link, which stays a link', async () => {
    await writeFile(join(dir, 'real.yaml'), 'old');
    await symlink(join(dir, 'real.yaml'), join(dir, 'link.yaml'));
    await writeFilesAtomically([{ path: join(dir, 'link.yaml'), text: 'new', read: 'old' }]);
    expect((await lstat(join(dir, 'link.yaml'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'real.yaml'), 'utf8')).toBe('new');
  });
});
