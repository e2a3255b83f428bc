/**
 * What the last converged run declared, kept on disk beside the write
 * journal (`<journal>.converged.json`), so the first write after a restart and
 * a one-shot `apply` can still tell drift from intent (audit/cause.ts): a
 * create of something declared then is a repair; of something new, intent.
 *
 * Safe to lose: without it a create that no owner mark explains is `unknown`,
 * as before. Written atomically (a temporary file renamed over it); a file
 * that does not read back, or was written for another owner, is ignored with
 * a warning. Bounded: past MAX_ENTRIES declared objects nothing is kept (the
 * file would cost more than the causes it tells).
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import type { Logger } from '../log.js';
import { shortHexDigest } from '../model/fingerprint.js';
import { registeredClasses, perClass, type ObjectClass } from '../model/object-class.js';
import type { DeclaredFingerprints } from './declared-fingerprints.js';
import { keySet, sameKeys } from './key-set.js';

export const MAX_ENTRIES = 500_000;
/**
 * 2: each class's keys under its name (`keys.rule`, `keys.ip`); version 1
 * (`rules`, `ip`), which a Rampart before the class registry wrote, still
 * reads, and the next converged run writes version 2.
 */
const VERSION = 2;

export interface ConvergedMemory {
  /** The last converged run's declarations, or undefined when none is remembered. */
  load(): Promise<DeclaredFingerprints | undefined>;
  /**
   * Writes `declared`, unless this store wrote the same declarations last and
   * the file is still as it left it: a daemon in step does not write the same
   * file every cycle (1.4 MB at 10k rules + 50k IP values). A file deleted or
   * replaced since, or a write that failed, is written at the next save.
   */
  save(declared: DeclaredFingerprints): Promise<void>;
}

/** What a store last wrote, and the file's size and time right after. */
interface Written {
  readonly declared: DeclaredFingerprints;
  readonly size: number;
  readonly mtimeMs: number;
}

interface MemoryFile {
  readonly version: typeof VERSION;
  readonly owner: string;
  readonly digest: string;
  readonly keys: { readonly [K in ObjectClass]: readonly string[] };
}

/** Version 1, read to carry the memory over an upgrade. */
interface MemoryFileVersion1 {
  readonly version: 1;
  readonly owner: string;
  readonly digest: string;
  readonly rules: readonly string[];
  readonly ip: readonly string[];
}

/** The memory file that goes with a journal file. */
export function convergedMemoryFile(journalFile: string): string {
  return `${journalFile}.converged.json`;
}

export function openConvergedMemory(file: string, owner: string, logger?: Logger): ConvergedMemory {
  let written: Written | undefined;
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logger?.warn({ file, code: (error as NodeJS.ErrnoException).code }, 'cannot read the converged-state memory; write causes may be unknown');
        return undefined;
      }
      const read = parse(text);
      if (!read) {
        logger?.warn({ file }, 'the converged-state memory does not read back; ignored (write causes may be unknown until the next converged run)');
        return undefined;
      }
      if (read.owner !== owner) return undefined;
      return { digest: read.digest, keys: perClass<DeclaredFingerprints['keys']>((kind) => keySet(read.keys[kind])) };
    },
    async save(declared) {
      const entries = registeredClasses().reduce((n, kind) => n + declared.keys[kind].size, 0);
      if (entries > MAX_ENTRIES) {
        logger?.info({ file, entries }, 'too many declared objects to remember the converged state; not kept');
        return;
      }
      if (written && sameDeclared(written.declared, declared) && await unchangedSince(file, written)) return;
      written = undefined;
      const body: MemoryFile = { version: VERSION, owner, digest: declared.digest, keys: perClass<MemoryFile['keys']>((kind) => [...declared.keys[kind]]) };
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify(body));
        await rename(temporary, file);
        const { size, mtimeMs } = await stat(file);
        written = { declared, size, mtimeMs };
      } catch (error) {
        logger?.warn({ file, code: (error as NodeJS.ErrnoException).code }, 'cannot write the converged-state memory; write causes after a restart may be unknown');
      }
    },
  };
}

/** Whether the file is still the one this store wrote (same size and time). */
async function unchangedSince(file: string, written: Written): Promise<boolean> {
  try {
    const { size, mtimeMs } = await stat(file);
    return size === written.size && mtimeMs === written.mtimeMs;
  } catch {
    return false;
  }
}

/** Whether two runs declared the same: their digests and every write key. */
export function sameDeclared(a: DeclaredFingerprints, b: DeclaredFingerprints): boolean {
  if (a === b) return true;
  return a.digest === b.digest && registeredClasses().every((kind) => sameKeys(a.keys[kind], b.keys[kind]));
}

function parse(text: string): MemoryFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<MemoryFile> | Partial<MemoryFileVersion1>;
    const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
    if (typeof value.owner !== 'string' || typeof value.digest !== 'string') return undefined;
    if (value.version === 1) {
      const { rules, ip } = value as Partial<MemoryFileVersion1>;
      if (!strings(rules) || !strings(ip)) return undefined;
      return { version: VERSION, owner: value.owner, digest: value.digest, keys: { rule: rules, ip } };
    }
    const { keys } = value as Partial<MemoryFile>;
    if (value.version !== VERSION || !keys || !registeredClasses().every((kind) => strings(keys[kind]))) return undefined;
    return value as MemoryFile;
  } catch {
    return undefined;
  }
}

/** An IP write key as remembered: a short digest of it, so the file stays small. */
export function rememberedIpKey(writeKey: string): string {
  return shortHexDigest(writeKey, 20);
}

