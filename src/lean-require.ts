/**
 * Loads the few modules of a dependency that Rampart uses instead of its
 * entry point, which loads everything the package offers. undici's index
 * loads every dispatcher, fetch, WebSocket, the mocks and the caches; the
 * daemon needs one pool (about 4 MB resident at idle, measured in
 * docs/performance.md).
 *
 * The paths are the package's internals, which a later version may move: then
 * the entry point is loaded instead, so an upgrade can cost memory but never
 * break Rampart. `leanFallbacks()` names the packages that fell back, and a
 * test fails on any, so the upgrade's review hears of it.
 */
import { requireCommonJs } from './commonjs.js';

const fellBack = new Set<string>();
const MOVED = new Set(['MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED']);

/** `parts(require)`, or `whole(require)` when one of the internal modules it loads is not where it was, or no longer exported. */
export function requireLean<T>(pkg: string, parts: (load: NodeJS.Require) => T, whole: (load: NodeJS.Require) => T): T {
  try {
    return parts(requireCommonJs);
  } catch (error) {
    // Moved, or hidden behind an `exports` map the package gained.
    if (!MOVED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    fellBack.add(pkg);
    return whole(requireCommonJs);
  }
}

/** Packages loaded whole because their internal modules moved. */
export function leanFallbacks(): string[] {
  return [...fellBack];
}
