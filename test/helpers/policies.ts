/**
 * Temporary policy directories for CLI tests: from YAML strings, or a copy of
 * the sample `policies/` to edit. Each directory is removed by `cleanup()`.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const SAMPLES = join(import.meta.dirname, '..', '..', 'policies');

export interface PolicyDir {
  /** The policy directory itself, `<root>/policies`. */
  readonly dir: string;
  /** Its parent: run the CLI here with `--policies policies` for short file names. */
  readonly root: string;
  /** Writes (or overwrites) a file, relative to the directory. */
  write(file: string, yaml: string): Promise<string>;
  read(file: string): Promise<string>;
  /** Replaces `from` with `to` in a file; throws if `from` is not there. */
  edit(file: string, from: string | RegExp, to: string): Promise<void>;
  remove(file: string): Promise<void>;
  /** A path next to the policies (not inside them), for plan files and the like. */
  scratch(name: string): string;
  cleanup(): Promise<void>;
}

/** A fresh directory holding `files` (name → YAML); the policies live in `dir`. */
export async function policyDir(files: Record<string, string> = {}): Promise<PolicyDir> {
  const root = await mkdtemp(join(tmpdir(), 'rampart-policies-'));
  const dir = join(root, 'policies');
  await mkdir(dir);
  const handle: PolicyDir = {
    dir,
    root,
    async write(file, yaml) {
      const path = join(dir, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, yaml);
      return path;
    },
    read: (file) => readFile(join(dir, file), 'utf8'),
    async edit(file, from, to) {
      const text = await handle.read(file);
      const edited = text.replace(from, to);
      if (edited === text) throw new Error(`edit: ${String(from)} not found in ${file}`);
      await writeFile(join(dir, file), edited);
    },
    remove: (file) => rm(join(dir, file), { force: true }),
    scratch: (name) => join(root, name),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  for (const [file, yaml] of Object.entries(files)) await handle.write(file, yaml);
  return handle;
}

/** A copy of the sample policies (account 10042: shop.yaml, api.yaml, account-wide.yaml). */
export async function samplePolicyDir(): Promise<PolicyDir> {
  const handle = await policyDir();
  await cp(SAMPLES, handle.dir, { recursive: true });
  return handle;
}

/** Dedents a template literal so YAML can be written indented in a test. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = text.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** Policy directories a test makes, each removed after that test. */
export function usePolicyDirs(): { make(files?: Record<string, string>): Promise<PolicyDir>; sample(): Promise<PolicyDir> } {
  const made: PolicyDir[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => dir.cleanup()));
  });
  const kept = (dir: PolicyDir): PolicyDir => (made.push(dir), dir);
  return {
    make: async (files = {}) => kept(await policyDir(files)),
    sample: async () => kept(await samplePolicyDir()),
  };
}
