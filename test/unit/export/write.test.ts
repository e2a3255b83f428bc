import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportFile } from '../../../src/export/export-file.js';
import { EXPORT_HEADER } from '../../../src/export/types.js';
import { writeExport } from '../../../src/export/write.js';
import { UsageError } from '../../../src/errors.js';

const file = (name: string, body = 'version: 1\n'): ExportFile => ({ name, text: `# ${EXPORT_HEADER} --client 1\`\n${body}`, rules: 0, ipValues: 0 });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-export-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeExport', () => {
  it('creates the directory and writes the files', async () => {
    const out = join(dir, 'a', 'b');
    const result = await writeExport(out, [file('app-7.yaml'), file('account-wide.yaml')]);
    expect(result).toEqual({ written: ['app-7.yaml', 'account-wide.yaml'], removed: [] });
    expect((await readdir(out)).sort()).toEqual(['account-wide.yaml', 'app-7.yaml']);
  });

  it('replaces its own files and removes those it no longer produces, leaving other files alone', async () => {
    await writeExport(dir, [file('app-7.yaml', 'old: 1\n'), file('app-8.yaml')]);
    await writeFile(join(dir, 'mine.yaml'), 'version: 1\n');
    const result = await writeExport(dir, [file('app-7.yaml', 'new: 1\n')]);
    expect(result.removed).toEqual(['app-8.yaml']);
    expect((await readdir(dir)).sort()).toEqual(['app-7.yaml', 'mine.yaml']);
    expect(await readFile(join(dir, 'app-7.yaml'), 'utf8')).toContain('new: 1');
  });

  it('refuses to overwrite a file it did not write, unless forced', async () => {
    await writeFile(join(dir, 'app-7.yaml'), 'hand written\n');
    await expect(writeExport(dir, [file('app-7.yaml')])).rejects.toBeInstanceOf(UsageError);
    expect(await readFile(join(dir, 'app-7.yaml'), 'utf8')).toBe('hand written\n');
    await writeExport(dir, [file('app-7.yaml')], { force: true });
    expect(await readFile(join(dir, 'app-7.yaml'), 'utf8')).toContain(EXPORT_HEADER);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to replace a link at an output name without --force, even one pointing at an earlier export', async () => {
    const elsewhere = join(dir, 'elsewhere');
    await writeExport(elsewhere, [file('app-7.yaml')]);
    const out = join(dir, 'out');
    await writeExport(out, []);
    await symlink(join(elsewhere, 'app-7.yaml'), join(out, 'app-7.yaml'));
    await expect(writeExport(out, [file('app-7.yaml', 'new: 1\n')])).rejects.toThrow(/refusing to overwrite .*app-7\.yaml/);
    expect((await lstat(join(out, 'app-7.yaml'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(elsewhere, 'app-7.yaml'), 'utf8')).not.toContain('new: 1');
  });
});
