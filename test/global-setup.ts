/**
 * Vitest global setup: builds dist/ once when it is missing or older than any
 * source file, so CLI integration tests run the code under test. `npm test`
 * builds first (pretest) and this then does nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function isStale(root = ROOT): boolean {
  const cli = join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) return true;
  return newestMtime(join(root, 'src')) > statSync(cli).mtimeMs;
}

export default function setup(): void {
  if (!isStale()) return;
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // tsc emits despite type errors; a test run should not stop on someone's work in progress.
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) {
    throw new Error(`the build failed and dist/cli.js is missing:\n${build.stdout}${build.stderr}`);
  }
  if (build.status !== 0) process.stderr.write(`global-setup: tsc reported errors (dist was still emitted):\n${build.stdout}`);
}
