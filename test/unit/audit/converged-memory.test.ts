/** The converged-state memory on disk: kept and read back, safe to lose, never another owner's, bounded. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { convergedMemoryFile, MAX_ENTRIES, openConvergedMemory } from '../../../src/audit/converged-memory.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-memory-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const declared = { digest: 'd1', rules: new Set(['fp-a', 'fp-b']), ip: new Set(['k1']) };

describe('the converged-state memory', () => {
  it('lives beside the journal, and reads back what was saved', async () => {
    const file = convergedMemoryFile(join(dir, 'journal.json'));
    expect(file).toBe(join(dir, 'journal.json.converged.json'));
    expect(await openConvergedMemory(file, 'rampart').save(declared)).toBe(true);
    expect(await openConvergedMemory(file, 'rampart').load()).toEqual(declared);
  });

  it('says when it could not write, so that the next converged cycle tries again', async () => {
    const warnings: string[] = [];
    const logger = { warn: (_o: unknown, msg: string) => warnings.push(msg), info: () => undefined } as never;
    const file = join(dir, 'no-such-dir', 'memory.json');
    expect(await openConvergedMemory(file, 'rampart', logger).save(declared)).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('cannot write')]);
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
    const huge = { digest: 'd', rules: new Set(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => `fp${i}`)), ip: new Set<string>() };
    // Not kept on purpose: nothing to try again.
    expect(await openConvergedMemory(file, 'rampart').save(huge)).toBe(true);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
