/**
 * Reads the policy directory as one consistent version. git-sync and ConfigMap
 * volumes swap a link atomically, but a read that spans a swap can mix two
 * versions or fail half-way when the old version is deleted. The real path is
 * taken before and after the read; when it moved, the read is done again.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { SnapshotUnstableError } from '../errors.js';

export interface SnapshotOptions {
  /** Reads to try before giving up. Default 5. */
  attempts?: number;
}

async function realDirOf(dir: string): Promise<string | null> {
  try {
    return await realpath(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null;
    throw error;
  }
}

/**
 * Calls `load(dir)` until the directory's real path is the same before the
 * read, after it, and as the `root` the loader reports (a loader resolves the
 * root once, then reads everything under it). A missing directory is handed to
 * `load` unchanged: the loader decides what "missing" means. A loader error is
 * rethrown unless the link moved during that read, in which case it is retried.
 */
export async function readConsistentSnapshot<T extends { root: string }>(
  dir: string,
  load: (dir: string) => Promise<T>,
  options: SnapshotOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 5);
  const seen: Array<string | null> = [];
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const before = await realDirOf(dir);
    let result: T;
    try {
      result = await load(dir);
    } catch (error) {
      const after = await realDirOf(dir);
      if (after === before) throw error;
      seen.push(before, after);
      continue;
    }
    const after = await realDirOf(dir);
    if (before === after && (after === null || path.resolve(result.root) === after)) return result;
    seen.push(before, after);
  }
  const versions = [...new Set(seen.map((s) => s ?? '(missing)'))].join(', ');
  throw new SnapshotUnstableError(
    `policy directory ${dir} kept changing while it was read (${attempts} attempts; saw ${versions})`,
  );
}
