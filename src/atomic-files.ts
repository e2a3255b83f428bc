/**
 * Writing several files all or nothing, for the commands that edit policy
 * files (`tune --write`). Each file's new text goes to a temporary file in its
 * own folder first (a full disk fails there, with the old file intact), and
 * only once every temporary file is written are they renamed into place; a
 * rename that fails puts back the files already renamed. A file another
 * writer changed since it was read is not overwritten: the write stops and
 * says so (two runs at once: one writes, the other is refused, no rule lost).
 * A link is written through, so it stays a link.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FileError } from './errors.js';

export interface FileWrite {
  readonly path: string;
  readonly text: string;
  /** The text the change was made from; undefined for a new file, which must not exist yet. */
  readonly read?: string;
}

/** The two calls that can fail half-way, replaceable to test a full disk or a failed rename. */
export interface WriteCalls {
  writeFile(path: string, text: string, options: { flag: string }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

const FS_CALLS: WriteCalls = { writeFile: (path, text, options) => writeFile(path, text, options), rename };

/** Writes every file or none; throws a FileError naming the file and why. */
export async function writeFilesAtomically(writes: readonly FileWrite[], calls: WriteCalls = FS_CALLS): Promise<void> {
  const targets = await Promise.all(writes.map(async (write) => ({ ...write, target: await writeTarget(write.path) })));
  const locks: string[] = [];
  const temporaries = new Map<string, string>();
  try {
    for (const write of targets) locks.push(await lock(write.target, write.path));
    for (const write of targets) await checkUnchanged(write);
    for (const write of targets) {
      await mkdir(dirname(write.target), { recursive: true });
      const temporary = join(dirname(write.target), `.${basename(write.target)}.${randomBytes(6).toString('hex')}.tmp`);
      temporaries.set(write.target, temporary);
      await calls.writeFile(temporary, write.text, { flag: 'wx' }).catch((error: unknown) => {
        throw new FileError(`cannot write ${write.path} (${code(error)}): nothing was changed`, { cause: error });
      });
    }
    await renameAll(targets);
    temporaries.clear();
  } finally {
    await Promise.all([...temporaries.values(), ...locks].map((file) => rm(file, { force: true })));
  }

  async function renameAll(list: readonly (FileWrite & { target: string })[]): Promise<void> {
    const done: (FileWrite & { target: string })[] = [];
    for (const write of list) {
      try {
        await calls.rename(temporaries.get(write.target) as string, write.target);
        done.push(write);
      } catch (error) {
        // Put back what was already renamed: all or nothing.
        for (const back of done) {
          if (back.read === undefined) await rm(back.target, { force: true });
          else await writeFile(back.target, back.read);
        }
        throw new FileError(`cannot write ${write.path} (${code(error)}): nothing was changed`, { cause: error });
      }
    }
  }
}

/** The real file behind `path` (a link is written through), or `path` itself for a new file. */
async function writeTarget(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/** An exclusive lock beside the file, for the length of the write; another writer holding it is refused. */
async function lock(target: string, shown: string): Promise<string> {
  const file = join(dirname(target), `.${basename(target)}.rampart-lock`);
  await mkdir(dirname(file), { recursive: true });
  try {
    const handle = await open(file, 'wx');
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    return file;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new FileError(`${shown} is being written by another run (${file} exists): nothing was changed; run again once it is done, or remove the lock if no run is`);
    }
    throw new FileError(`cannot lock ${shown} for writing (${code(error)}): nothing was changed`, { cause: error });
  }
}

async function checkUnchanged(write: FileWrite & { target: string }): Promise<void> {
  const now = await readFile(write.target, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new FileError(`cannot read ${write.path} (${code(error)}): nothing was changed`, { cause: error });
  });
  if (now === write.read) return;
  throw new FileError(write.read === undefined
    ? `${write.path} appeared since it was read (another run?): nothing was changed; run again`
    : `${write.path} changed since it was read (another run, or an edit): nothing was changed; run again to tune on top of it`);
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
