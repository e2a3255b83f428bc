/**
 * Writes an export into a directory. Files an earlier export wrote (they carry
 * the export header) are replaced, and removed when this export no longer
 * produces them, so re-running export leaves exactly the current account in
 * the directory. Any other file in the way is refused unless `force`.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { EXPORT_RECORD_FILE, type ExportRecord } from './record.js';
import type { ExportFile } from './export-file.js';
import { EXPORT_HEADER } from './types.js';

export interface WriteResult {
  readonly written: string[];
  readonly removed: string[];
}

export async function writeExport(dir: string, files: readonly ExportFile[], options: { force?: boolean; record?: ExportRecord } = {}): Promise<WriteResult> {
  await mkdir(dir, { recursive: true });
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => /\.ya?ml$/.test(e.name));
  const existing = entries.filter((e) => e.isFile()).map((e) => e.name);
  // A link is never an earlier export's file: replacing it would cut the link (and write where it did not point).
  const links = entries.filter((e) => e.isSymbolicLink()).map((e) => e.name);
  const ours = new Set<string>();
  for (const name of existing) {
    if (await writtenByExport(join(dir, name))) ours.add(name);
  }
  const wanted = new Set(files.map((f) => f.name));
  const blocking = [...existing.filter((name) => !ours.has(name)), ...links].filter((name) => wanted.has(name)).sort();
  if (blocking.length > 0 && !options.force) {
    throw new UsageError(`refusing to overwrite ${blocking.map((n) => join(dir, n)).join(', ')}: not written by rampart export (choose another --out, or --force)`);
  }
  const written: string[] = [];
  for (const file of files) {
    const target = join(dir, file.name);
    const temporary = join(dir, `.${file.name}.${process.pid}.tmp`);
    await writeFile(temporary, file.text, { mode: 0o644 });
    await rename(temporary, target);
    written.push(file.name);
  }
  if (options.record) {
    const temporary = join(dir, `.${EXPORT_RECORD_FILE}.${process.pid}.tmp`);
    await writeFile(temporary, `${JSON.stringify(options.record, null, 2)}\n`, { mode: 0o644 });
    await rename(temporary, join(dir, EXPORT_RECORD_FILE));
  }
  const removed: string[] = [];
  for (const name of [...ours].sort()) {
    if (wanted.has(name)) continue;
    await rm(join(dir, name));
    removed.push(name);
  }
  return { written, removed };
}

async function writtenByExport(path: string): Promise<boolean> {
  try {
    const head = (await readFile(path, 'utf8')).slice(0, 600);
    return head.includes(EXPORT_HEADER);
  } catch {
    return false;
  }
}
