/**
 * Watches a policy directory and calls `onChange` (debounced) when anything
 * that could change the desired state happens. It survives the two ways
 * policies are usually delivered:
 *
 * - git-sync: `/git/repo` is a relative link to `.worktrees/<hash>`, replaced
 *   atomically by a rename on each commit, with the old worktree deleted.
 * - Kubernetes ConfigMap volumes: `..data` links to a timestamped directory and
 *   is replaced by a rename on each update.
 *
 * Two kinds of chokidar watchers: depth-0 watchers on the directory holding
 * each link (or missing component) on the way to the policy directory, and a
 * recursive watcher on the currently resolved real directory. Every event
 * resolves the path again and re-targets the watchers when it moved. The
 * watcher only requests a cycle; the cycle reads the full state.
 */
import { watch, type ChokidarOptions } from 'chokidar';
import path from 'node:path';
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import { IGNORE_FILE } from '../policy/files.js';
import { PAUSE_FILE } from '../policy/pause.js';
import { anchorsKey, resolvePathLinks, type Anchor, type PathResolution } from './path-links.js';
import { systemScheduler, type Scheduler, type TimerHandle } from './scheduler.js';

export interface WatchOptions {
  signal: AbortSignal;
  /** Quiet time that closes a burst of events into one `onChange`. Default 200 ms. */
  debounceMs?: number;
  logger?: Logger;
  /**
   * Called once the first watchers are in place. Changes from then on are
   * reported; the caller reads the directory after this call, as an informer's
   * user waits for its cache: a change made while the watch was starting may
   * not be reported.
   */
  onReady?: () => void;
  /** The clock and the debounce timer (tests inject their own). Default: the process's. */
  scheduler?: Scheduler;
  /** Starts a file-system watcher (tests inject one whose first scan they control). Default: chokidar's. */
  startWatcher?: StartWatcher;
}

/** What the watch needs of a chokidar watcher. */
export interface PathWatcher {
  on(event: 'all', listener: (event: string, path: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  once(event: 'ready', listener: () => void): unknown;
  close(): Promise<void>;
}

export type StartWatcher = (paths: string | string[], options: ChokidarOptions) => PathWatcher;

/** The ConfigMap volume's link to the current data directory. */
const CONFIGMAP_DATA_LINK = '..data';
const POLICY_FILE = /\.ya?ml$/i;
/** A burst that never goes quiet still yields a change at least this many debounce periods apart. */
const MAX_WAIT_FACTOR = 10;
const MAX_REASONS_IN_MESSAGE = 3;

/** True for a path under `root` that the content watcher should skip. */
export function isIgnoredContentPath(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  if (rel === '' || rel.startsWith('..' + path.sep) || rel === '..') return false;
  // The break-glass and ignore files at the top: a change of either must be seen at once.
  if (rel === PAUSE_FILE || rel === IGNORE_FILE) return false;
  return rel.split(path.sep).some((part) => part.startsWith('.') && part !== CONFIGMAP_DATA_LINK);
}

/** True when an event on `file` can change what the loader reads. */
function isRelevantContentEvent(event: string, file: string): boolean {
  if (event === 'addDir' || event === 'unlinkDir') return true;
  const base = path.basename(file);
  return base === CONFIGMAP_DATA_LINK || base === PAUSE_FILE || base === IGNORE_FILE || POLICY_FILE.test(base);
}

/**
 * The longest a move of the watcher waits for a new watcher's first scan. A
 * scan takes well under a second for a policy repository; a file system that
 * never finishes one must not hold back every later move.
 */
const SCAN_WAIT_MS = 10_000;

/**
 * Resolves once `watcher` finished its first scan; at once when `signal`
 * aborts (a stop never waits for a scan); or after `SCAN_WAIT_MS`, calling
 * `onSlow`, the watcher kept.
 */
function readyOf(watcher: PathWatcher, signal: AbortSignal, scheduler: Scheduler, onSlow: () => void): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      signal.removeEventListener('abort', done);
      scheduler.clearTimeout(slow);
      resolve();
    };
    const slow = scheduler.setTimeout(() => {
      onSlow();
      done();
    }, SCAN_WAIT_MS);
    signal.addEventListener('abort', done, { once: true });
    watcher.once('ready', done);
  });
}

/**
 * Resolves once `signal` aborts and every watcher is closed. Never rejects for
 * a missing directory or a link swapped mid-walk: it waits for it to appear.
 */
export async function watchPolicyDirectory(
  dir: string,
  onChange: (reason: string) => void,
  options: WatchOptions,
): Promise<void> {
  const { signal } = options;
  const debounceMs = options.debounceMs ?? 200;
  const scheduler = options.scheduler ?? systemScheduler;
  const startWatcher: StartWatcher = options.startWatcher ?? watch;
  const logger = (options.logger ?? silentLogger()).child({ module: 'watch' });
  const target = path.resolve(dir);
  if (signal.aborted) return;

  let anchorWatcher: PathWatcher | undefined;
  let contentWatcher: PathWatcher | undefined;
  let current: PathResolution = { realDir: null, anchors: [] };
  let reasons: string[] = [];
  let timer: TimerHandle | undefined;
  let burstStartedAt = 0;
  /**
   * Every re-resolve after the first waits for the one before: two at once
   * would close each other's watchers, and a watcher closed before its first
   * scan ends never says it is ready.
   */
  let chain: Promise<void> = Promise.resolve();
  let initial = true;

  const fire = (): void => {
    if (signal.aborted) return;
    const shown = reasons.slice(0, MAX_REASONS_IN_MESSAGE).join(', ');
    const more = reasons.length > MAX_REASONS_IN_MESSAGE ? ` (+${reasons.length - MAX_REASONS_IN_MESSAGE} more)` : '';
    reasons = [];
    const reason = `${shown}${more}`;
    logger.info({ dir: target, reason }, 'policy directory changed');
    try {
      onChange(reason);
    } catch (error) {
      logger.error({ err: error }, 'change handler threw');
    }
  };

  /** Re-resolves, re-targets when the directory moved, then reports the burst. */
  const settle = (): void => {
    timer = undefined;
    burstStartedAt = 0;
    chain = chain
      .then(async () => {
        if (signal.aborted) return;
        // A failed re-resolve (e.g. EACCES) is logged; the change is still reported.
        await retarget().catch((error: unknown) => logger.error({ err: error, dir: target }, 'watcher refresh failed'));
        if (reasons.length > 0 && timer === undefined) fire();
      })
      .catch((error: unknown) => logger.error({ err: error }, 'watcher refresh failed'));
  };

  const addReason = (reason: string): void => {
    if (!reasons.includes(reason)) reasons.push(reason);
  };

  const note = (reason: string): void => {
    if (signal.aborted) return;
    addReason(reason);
    const now = scheduler.now();
    if (burstStartedAt === 0) burstStartedAt = now;
    if (timer !== undefined) scheduler.clearTimeout(timer);
    const waited = now - burstStartedAt;
    const delay = Math.max(0, Math.min(debounceMs, debounceMs * MAX_WAIT_FACTOR - waited));
    timer = scheduler.setTimeout(settle, delay);
  };

  const describe = (file: string): string => {
    const base = current.realDir ?? target;
    const rel = path.relative(base, file);
    return rel === '' || rel.startsWith('..') ? file : rel;
  };

  const scanned = (watcher: PathWatcher, dirs: readonly string[]): Promise<void> =>
    readyOf(watcher, signal, scheduler, () => logger.warn({ dirs, waitedMs: SCAN_WAIT_MS }, 'first scan of a watched directory not finished; watching it anyway'));

  const startAnchors = async (anchors: readonly Anchor[]): Promise<void> => {
    const watched = new Set(anchors.map((a) => path.join(a.dir, a.name)));
    const dirs = [...new Set(anchors.map((a) => a.dir))];
    if (dirs.length === 0) return;
    const watcher = startWatcher(dirs, {
      depth: 0,
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (p: string) => !dirs.includes(p) && !watched.has(p),
    });
    anchorWatcher = watcher;
    // chokidar reports some symbolic links as added while it scans, even with ignoreInitial.
    let ready = false;
    watcher.on('all', (event, file) => {
      if (!ready || anchorWatcher !== watcher || !watched.has(file)) return;
      note(`${event} ${file}`);
    });
    watcher.on('error', (error) => logger.debug({ err: error }, 'anchor watcher error'));
    await scanned(watcher, dirs);
    ready = true;
  };

  const startContent = async (realDir: string): Promise<void> => {
    const watcher = startWatcher(realDir, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (p: string) => isIgnoredContentPath(realDir, p),
    });
    contentWatcher = watcher;
    let ready = false;
    watcher.on('all', (event, file) => {
      if (!ready || contentWatcher !== watcher || !isRelevantContentEvent(event, file)) return;
      note(`${event} ${describe(file)}`);
    });
    watcher.on('error', (error) => logger.debug({ err: error }, 'content watcher error'));
    await scanned(watcher, [realDir]);
    ready = true;
  };

  /** Resolves the path again; moves the watchers if needed. Loops until stable. */
  async function retarget(): Promise<void> {
    for (let round = 0; round < 5 && !signal.aborted; round += 1) {
      const next = await resolvePathLinks(target);
      const anchorsMoved = anchorsKey(next.anchors) !== anchorsKey(current.anchors) || anchorWatcher === undefined;
      const contentMoved = next.realDir !== current.realDir;
      if (!anchorsMoved && !contentMoved) return;
      const appeared = current.realDir === null && next.realDir !== null;
      const wasMissing = next.realDir === null;
      const before = current.realDir;
      current = next;
      if (anchorsMoved) {
        const old = anchorWatcher;
        anchorWatcher = undefined;
        await old?.close();
        if (!signal.aborted) await startAnchors(next.anchors);
      }
      if (contentMoved) {
        const old = contentWatcher;
        contentWatcher = undefined;
        await old?.close();
        if (next.realDir !== null && !signal.aborted) await startContent(next.realDir);
        logger.debug({ dir: target, from: before, to: next.realDir }, 'policy directory re-targeted');
      }
      if (round === 0 && !initial) {
        if (appeared) addReason('policy directory appeared');
        else if (wasMissing) addReason('policy directory disappeared');
        else if (contentMoved) addReason(`policy directory moved to ${next.realDir}`);
      }
    }
  }

  const closeAll = async (): Promise<void> => {
    if (timer !== undefined) scheduler.clearTimeout(timer);
    await Promise.all([anchorWatcher?.close(), contentWatcher?.close()]);
    anchorWatcher = undefined;
    contentWatcher = undefined;
  };

  const firstResolve = retarget();
  chain = firstResolve.catch(() => undefined);
  try {
    await firstResolve;
  } catch (error) {
    // The watchers of the rounds before stay open otherwise, and keep the process from exiting.
    await closeAll();
    throw error;
  }
  initial = false;
  if (current.realDir === null) logger.warn({ dir: target }, 'policy directory missing; waiting for it to appear');
  else logger.debug({ dir: target, realDir: current.realDir }, 'watching policy directory');
  options.onReady?.();

  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  if (timer !== undefined) scheduler.clearTimeout(timer);
  await chain;
  await closeAll();
}
