/**
 * Reads the records exports left next to the policy files they wrote
 * (`.rampart-export.json`, src/export/record.ts): in the policy directory and
 * in every directory holding a policy file. Their file names are made
 * relative to where the plan runs, like every other policy path. A missing
 * or unreadable record is no record: it only makes the plan say more.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EXPORT_RECORD_FILE, parseRecord, type ExportedObject } from '../export/record.js';

export async function readExportRecords(policies: string, files: readonly string[]): Promise<ExportedObject[]> {
  const dirs = [...new Set([policies, ...files.map((file) => dirname(file))])].sort();
  const records = await Promise.all(dirs.map(async (dir) => {
    try {
      const objects = parseRecord(await readFile(join(dir, EXPORT_RECORD_FILE), 'utf8')) ?? [];
      return objects.map((o) => ({ ...o, file: join(dir, o.file) }));
    } catch {
      return [];
    }
  }));
  return records.flat();
}
