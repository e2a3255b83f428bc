/** The soak runs the real CLI (`dist/cli.js`); build it when missing or older than src/. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest directory above this module holding package.json and src/. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src')))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('repository root not found above bench/soak');
    dir = parent;
  }
  return dir;
}

function newestTs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestTs(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureCliBuilt(root = repoRoot()): string {
  const cli = join(root, 'dist', 'cli.js');
  if (existsSync(cli) && newestTs(join(root, 'src')) <= statSync(cli).mtimeMs) return cli;
  spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (!existsSync(cli)) throw new Error('the build failed: dist/cli.js is missing');
  return cli;
}
