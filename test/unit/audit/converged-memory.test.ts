/** The converged-state memory on disk: kept and read back, safe to lose, never another owner's, bounded. */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { convergedMemoryFile, MAX_ENTRIES, openConvergedMemory, sameDeclared } from '../../../src/audit/converged-memory.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-memory-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const keys = (rule: readonly string[], ip: readonly string[]) => ({ rule: new Set(rule), ip: new Set(ip) });
const declared = { digest: 'd1', keys: keys(['fp-a', 'fp-b'], ['k1']) };

describe('the converged-state memory', () => {
  it('reads a version 1 file (before the class registry) as the same memory, keyed by class', async () => {
    const file = join(dir, 'memory.json');
    await writeFile(file, JSON.stringify({ version: 1, owner: 'rampart', digest: 'd1', rules: ['fp-a', 'fp-b'], ip: ['k1'] }));
    expect(await openConvergedMemory(file, 'rampart').load()).toEqual(declared);
    await openConvergedMemory(file, 'rampart').save({ ...declared, digest: 'd2' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 2, digest: 'd2', keys: { rule: ['fp-a', 'fp-b'], ip: ['k1'] } });
  });

  it('lives beside the journal, and reads back what was saved', async () => {
    const file = convergedMemoryFile(join(dir, 'journal.json'));
    expect(file).toBe(join(dir, 'journal.json.converged.json'));
    await openConvergedMemory(file, 'rampart').save(declared);
    expect(await openConvergedMemory(file, 'rampart').load()).toEqual(declared);
  });

  it('does not write the same declarations again while the file is as it left it; writes when they differ or the file went', async () => {
    const file = join(dir, 'memory.json');
    const memory = openConvergedMemory(file, 'rampart');
    // Each write renames a new file over the old one: a new inode.
    const inode = async () => (await stat(file)).ino;
    await memory.save(declared);
    const first = await inode();
    await memory.save({ ...declared, keys: keys(['fp-b', 'fp-a'], ['k1']) });
    expect(await inode()).toBe(first);
    await memory.save({ ...declared, keys: keys(['fp-a', 'fp-b'], ['k2']) });
    const second = await inode();
    expect(second).not.toBe(first);
    await rm(file);
    await memory.save({ ...declared, keys: keys(['fp-a', 'fp-b'], ['k2']) });
    expect(await openConvergedMemory(file, 'rampart').load()).toEqual({ ...declared, keys: keys(['fp-a', 'fp-b'], ['k2']) });
  });

  it('writes at the next save after a write that failed', async () => {
    const warnings: string[] = [];
    const logger = { warn: (_o: unknown, msg: string) => warnings.push(msg), info: () => undefined } as never;
    const file = join(dir, 'later', 'memory.json');
    const memory = openConvergedMemory(file, 'rampart', logger);
    await memory.save(declared);
    expect(warnings).toEqual([expect.stringContaining('cannot write')]);
    await mkdir(join(dir, 'later'));
    await memory.save(declared);
    expect(await openConvergedMemory(file, 'rampart').load()).toEqual(declared);
  });

  it('remembers nothing for another owner, for a missing file, or for one that does not read back (and says so)', async () => {
    const file = join(dir, 'memory.json');
    expect(await openConvergedMemory(file, 'rampart').load()).toBeUndefined();
    await openConvergedMemory(file, 'team-b').save(declared);
    expect(await openConvergedMemory(file, 'rampart').load()).toBeUndefined();
    await writeFile(file, '{"version":1,"owner":"rampart","digest":"x","rules":[1]}');
    const warnings: string[] = [];
    const logger = { warn: (_o: unknown, msg: string) => warnings.push(msg), info: () => undefined } as never;
    expect(await openConvergedMemory(file, 'rampart', logger).load()).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('does not read back')]);
  });

  it('keeps nothing past its bound, so the file never outgrows what it tells', async () => {
    const file = join(dir, 'memory.json');
    const huge = { digest: 'd', keys: keys(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => `fp${i}`), []) };
    await openConvergedMemory(file, 'rampart').save(huge);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('sameDeclared', () => {
  it('holds for the same digest and write keys, and for nothing else', () => {
    expect(sameDeclared(declared, declared)).toBe(true);
    expect(sameDeclared(declared, { digest: 'd1', keys: keys(['fp-b', 'fp-a'], ['k1']) })).toBe(true);
    expect(sameDeclared(declared, { ...declared, digest: 'd2' })).toBe(false);
    expect(sameDeclared(declared, { ...declared, keys: keys(['fp-a'], ['k1']) })).toBe(false);
    expect(sameDeclared(declared, { ...declared, keys: keys(['fp-a', 'fp-c'], ['k1']) })).toBe(false);
    expect(sameDeclared(declared, { ...declared, keys: keys(['fp-a', 'fp-b'], ['k2']) })).toBe(false);
  });
});
