/**
 * Resolves a path component by component, the way the kernel does, and records
 * where it can move under us: every symbolic link met on the way (git-sync's
 * `repo`, a ConfigMap's `..data`) and the final or first missing component.
 * The watcher watches the parent directory of each such "anchor" so that an
 * atomic rename of a link, or a directory appearing, is seen.
 */
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

/** A name inside a real directory whose replacement moves the policy directory. */
export interface Anchor {
  /** The real (resolved) directory that holds the entry. */
  readonly dir: string;
  /** The entry's name in `dir`. */
  readonly name: string;
}

export interface PathResolution {
  /** The real path of the directory, or null when it (or a parent) does not exist. */
  readonly realDir: string | null;
  /** Entries to watch at depth 0, deduplicated, in the order met. */
  readonly anchors: readonly Anchor[];
}

const MAX_LINK_HOPS = 40;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

function split(p: string): string[] {
  return p.split(path.sep).filter((part) => part !== '' && part !== '.');
}

/**
 * Walks `target` from the file-system root. Never throws for a missing path or
 * a link swapped mid-walk: it reports `realDir: null` and the anchor where the
 * walk stopped, so the caller can wait for it to appear.
 */
export async function resolvePathLinks(target: string): Promise<PathResolution> {
  const anchors: Anchor[] = [];
  const seen = new Set<string>();
  const addAnchor = (dir: string, name: string): void => {
    const key = path.join(dir, name);
    if (seen.has(key)) return;
    seen.add(key);
    anchors.push({ dir, name });
  };

  const absolute = path.resolve(target);
  const root = path.parse(absolute).root;
  const pending = split(absolute.slice(root.length));
  let current = root;
  let hops = 0;

  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = path.join(current, name);
    const isLast = pending.length === 0;
    let stats;
    try {
      stats = await lstat(candidate);
    } catch (error) {
      if (!isMissing(error)) throw error;
      addAnchor(current, name);
      return { realDir: null, anchors };
    }
    if (stats.isSymbolicLink()) {
      addAnchor(current, name);
      hops += 1;
      if (hops > MAX_LINK_HOPS) return { realDir: null, anchors };
      let link: string;
      try {
        link = await readlink(candidate);
      } catch (error) {
        if (!isMissing(error)) throw error;
        // Replaced between lstat and readlink: the caller resolves again on the next event.
        return { realDir: null, anchors };
      }
      if (path.isAbsolute(link)) current = path.parse(link).root;
      pending.unshift(...split(path.isAbsolute(link) ? link.slice(path.parse(link).root.length) : link));
      continue;
    }
    if (isLast) addAnchor(current, name);
    if (!stats.isDirectory()) {
      if (isLast) return { realDir: null, anchors };
      addAnchor(current, name);
      return { realDir: null, anchors };
    }
    current = candidate;
  }
  return { realDir: current, anchors };
}

/** Stable text form, to tell whether two resolutions watch the same things. */
export function anchorsKey(anchors: readonly Anchor[]): string {
  return anchors.map((a) => path.join(a.dir, a.name)).join('\n');
}
