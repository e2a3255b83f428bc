/**
 * Which version of the policies a read saw, told from where they live:
 *
 * - git-sync: the link points at a worktree named after the commit
 *   (`.worktrees/<hash>` in v4, `rev-<hash>` or `<hash>` before), so the
 *   resolved path of the policy directory holds the commit hash;
 * - a Kubernetes ConfigMap volume: `..data` points at a directory named after
 *   the update (`..2026_11_23_18_26_21.123456789`): read from the link in the
 *   mounted directory (its files are links through it), or found in the
 *   resolved path when the policies point inside it;
 * - a plain git checkout (CI): the commit `HEAD` names, read from `.git`,
 *   with `-dirty` after it when the policy files differ from that commit.
 *
 * Taken from the real path the loader read, so it names the snapshot planned,
 * not whatever the link points at a moment later.
 */
import { execFile } from 'node:child_process';
import { readFile, readlink, stat } from 'node:fs/promises';
import path from 'node:path';

export interface PolicyRevision {
  /** A commit hash, or the ConfigMap's data directory name. */
  readonly revision: string;
  readonly source: 'git-sync' | 'configmap' | 'git';
}

const WORKTREE = /^(?:rev-)?([0-9a-f]{40}|[0-9a-f]{64})$/;
const CONFIGMAP_DATA_LINK = '..data';
const CONFIGMAP_DATA = /^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\d+$/;

/** The revision a resolved path names (the component closest to the policies wins), or undefined. */
export function revisionFromPath(realDir: string): PolicyRevision | undefined {
  const parts = path.resolve(realDir).split(path.sep);
  for (let i = parts.length - 1; i >= 0; i -= 1) {
    const part = parts[i] as string;
    const hash = WORKTREE.exec(part)?.[1];
    if (hash !== undefined) return { revision: hash, source: 'git-sync' };
    if (CONFIGMAP_DATA.test(part)) return { revision: part, source: 'configmap' };
  }
  return undefined;
}

/** The revision of the policies read from `realDir`; undefined when nothing names one. Never throws. */
export async function readPolicyRevision(realDir: string): Promise<PolicyRevision | undefined> {
  const fromPath = revisionFromPath(realDir);
  if (fromPath) return fromPath;
  const data = await readlink(path.join(realDir, CONFIGMAP_DATA_LINK)).catch(() => undefined);
  const target = data === undefined ? undefined : path.basename(data);
  if (target !== undefined && CONFIGMAP_DATA.test(target)) return { revision: target, source: 'configmap' };
  try {
    const head = await gitHead(realDir);
    if (head === undefined) return undefined;
    return { revision: (await hasLocalChanges(realDir)) ? `${head}${DIRTY}` : head, source: 'git' };
  } catch {
    return undefined;
  }
}

/** Marks a revision whose policy files differ from the commit, as `git describe --dirty` does. */
export const DIRTY = '-dirty';

/**
 * Whether the policy files under `dir` differ from the commit (changed,
 * staged, or new and not ignored): the audit must not name a commit for
 * files it does not hold. Asks git when it is installed; without it, or when
 * it fails, the answer is "no", as before.
 */
function hasLocalChanges(dir: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=normal', '--', '.'], { timeout: 5000, windowsHide: true }, (error, stdout) => {
      resolve(error === null && stdout.trim() !== '');
    });
  });
}

/** The commit HEAD names in the repository holding `dir`, read from the files (no git binary needed). */
async function gitHead(dir: string): Promise<string | undefined> {
  const gitDir = await findGitDir(path.resolve(dir));
  if (gitDir === undefined) return undefined;
  const head = (await readFile(path.join(gitDir, 'HEAD'), 'utf8')).trim();
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (ref === undefined) return isHash(head) ? head : undefined;
  // A linked worktree keeps its refs in the common directory.
  const common = await readText(path.join(gitDir, 'commondir'));
  const dirs = [gitDir, ...(common ? [path.resolve(gitDir, common)] : [])];
  for (const base of dirs) {
    const loose = await readText(path.join(base, ref));
    if (loose !== undefined && isHash(loose)) return loose;
    const packed = await readText(path.join(base, 'packed-refs'));
    const line = packed?.split('\n').find((l) => l.endsWith(` ${ref}`));
    const hash = line?.split(' ')[0];
    if (hash !== undefined && isHash(hash)) return hash;
  }
  return undefined;
}

async function findGitDir(start: string): Promise<string | undefined> {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.git');
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isDirectory()) return candidate;
    if (info?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec((await readText(candidate)) ?? '')?.[1];
      return pointer === undefined ? undefined : path.resolve(dir, pointer.trim());
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

function isHash(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}
