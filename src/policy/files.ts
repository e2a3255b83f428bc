/**
 * Finds the policy files under a directory: `*.yaml` / `*.yml`, recursively,
 * skipping names that start with a dot. The root is resolved once with
 * realpath, so a git-sync or ConfigMap volume (`..data` → `..2024_…/`) is read
 * as one snapshot; symlinked directories inside are followed, each real
 * directory once, so a symlink loop ends. A link whose real target lies
 * outside the resolved root is refused by name and never read: a link to a
 * secret (the pod's token file, `/proc/self/environ`) merged into the policy
 * repository must not print it in an error. A `.rampartignore` at the top
 * (gitignore syntax, paths relative to the policy directory) leaves out YAML
 * files that are not policies: CI configuration, Helm values, fixtures.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type IgnoreModule from 'ignore';
import { requireCommonJs } from '../commonjs.js';

const ignore = requireCommonJs('ignore') as typeof IgnoreModule;
type Ignore = IgnoreModule.Ignore;

/** Patterns of files under the policy directory that are not policies. */
export const IGNORE_FILE = '.rampartignore';

export interface PolicyFile {
  /** Absolute path under the resolved root. */
  readonly path: string;
  /** Relative to the resolved root with `/` separators: stable, used in the digest. */
  readonly relative: string;
}

export interface FoundFiles {
  readonly root: string;
  readonly exists: boolean;
  /** True when the root is a single file rather than a directory. */
  readonly single: boolean;
  readonly files: PolicyFile[];
  /** Unreadable entries, as (path, reason). */
  readonly problems: { path: string; message: string }[];
}

const POLICY_FILE = /\.ya?ml$/i;

export async function findPolicyFiles(dir: string): Promise<FoundFiles> {
  let root: string;
  try {
    root = await realpath(dir);
  } catch {
    return { root: resolve(dir), exists: false, single: false, files: [], problems: [] };
  }
  const rootStat = await stat(root);
  if (rootStat.isFile()) {
    const name = root.slice(root.lastIndexOf(sep) + 1);
    return { root, exists: true, single: true, files: [{ path: root, relative: name }], problems: [] };
  }
  const files: PolicyFile[] = [];
  const problems: { path: string; message: string }[] = [];
  const ignored = await readIgnoreFile(root, problems);
  const seenDirs = new Set<string>([root]);
  const seenFiles = new Set<string>();

  const walk = async (dirPath: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dirPath, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: dirPath, message: reason(error) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dirPath, entry.name);
      const rel = relative(root, full).split(sep).join('/');
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let real = full;
      if (entry.isSymbolicLink()) {
        try {
          real = await realpath(full);
          const target = await stat(real);
          isDir = target.isDirectory();
          isFile = target.isFile();
        } catch (error) {
          problems.push({ path: full, message: `broken symbolic link (${reason(error)})` });
          continue;
        }
        if (!isWithin(root, real)) {
          problems.push({ path: full, message: 'a link to something outside the policy directory: not read (policy files and folders must lie under it)' });
          continue;
        }
      }
      if (ignored?.ignores(isDir ? `${rel}/` : rel)) continue;
      if (isDir) {
        if (seenDirs.has(real)) continue; // a loop, or a second link to a directory already read
        seenDirs.add(real);
        await walk(full);
      } else if (isFile && POLICY_FILE.test(entry.name)) {
        if (seenFiles.has(real)) continue;
        seenFiles.add(real);
        files.push({ path: full, relative: rel });
      }
    }
  };
  await walk(root);
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { root, exists: true, single: false, files, problems };
}

/** Whether the real path `path` is `root` or lies under it. */
function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** The root's `.rampartignore`, or undefined when there is none; unreadable is a problem reported like any file. */
async function readIgnoreFile(root: string, problems: { path: string; message: string }[]): Promise<Ignore | undefined> {
  const file = join(root, IGNORE_FILE);
  try {
    return ignore().add(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push({ path: file, message: reason(error) });
    return undefined;
  }
}

function reason(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
