/**
 * The install path the README gives before anything is published: `npm pack`
 * makes a tarball, `npm install` of that tarball gives a working `rampart`.
 * Offline: the tarball's dependencies come from npm's cache through a lockfile
 * made from this repository's own (the versions `npm ci` just installed), so
 * the test needs no registry and checks exactly what a user would install.
 * `npm pack --ignore-scripts` reuses the dist/ the test run already built.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

interface LockEntry { readonly dev?: boolean; readonly link?: boolean; readonly [key: string]: unknown }
interface Lock { readonly packages: Record<string, LockEntry> }

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A project depending on the tarball alone, locked to this repository's production dependencies. */
async function consumerOf(tarball: string, dir: string): Promise<void> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const own = lock.packages[''] ?? {};
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { rampart: spec } },
    'node_modules/rampart': {
      version: own.version, resolved: spec, license: own.license,
      dependencies: own.dependencies, bin: own.bin, engines: own.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path.startsWith('node_modules/') && !entry.dev && !entry.link) packages[path] = entry;
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies: { rampart: spec } }));
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }));
}

describe('installing from a tarball made with npm pack', () => {
  it('packs only what runs, installs offline, and the installed rampart works', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'rampart-install-'));
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT, env: quiet });
    const [packed] = JSON.parse(stdout) as { filename: string; version: string; files: { path: string }[] }[];
    const files = packed!.files.map((file) => file.path);
    for (const needed of ['dist/cli.js', 'dist/commands/main.js', 'schemas/policy.schema.json', 'package.json', 'README.md']) expect(files).toContain(needed);
    expect(files.filter((file) => /^(src|test|policies|deploy|bench)\//.test(file) || file.endsWith('.tsbuildinfo'))).toEqual([]);

    const app = join(scratch, 'app');
    await mkdir(app);
    await consumerOf(join(scratch, packed!.filename), app);
    await run(npm, ['ci', '--offline', '--ignore-scripts'], { cwd: app, env: quiet, timeout: 120_000 });

    const rampart = join(app, 'node_modules', '.bin', 'rampart');
    const version = await run(rampart, ['--version'], { cwd: app });
    expect(version.stdout.trim()).toBe(packed!.version);
    const validate = await run(rampart, ['validate', '--policies', join(ROOT, 'policies')], { cwd: app });
    expect(validate.stdout).toMatch(/\d+ policy files valid/);
  }, 150_000);
});
