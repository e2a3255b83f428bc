/**
 * State on disk. Writes are atomic (temp file in the same directory, fsync,
 * rename), so a crash leaves the old file or the new one, never half of one.
 * Writes are coalesced ("group commit"): a write call waits for the file to hold
 * every change made before it, and all calls arriving while a write is running
 * share the next single write.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FileError, UsageError } from '../errors.js';
import { emptyState, type ActionRecord, type EmulatorState, type HintRecord, type IpObject, type Stored } from './store.js';

const FORMAT = 'rampart-emulator-state';
const VERSION = 1;

interface StateFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  nextIds: EmulatorState['nextIds'];
  clockOffsetMs: number;
  hints: Stored<HintRecord>[];
  actions: { key: string; action: ActionRecord }[];
  ipObjects: Stored<IpObject>[];
}

export function serializeState(state: EmulatorState): string {
  const file: StateFile = {
    format: FORMAT,
    version: VERSION,
    nextIds: state.nextIds,
    clockOffsetMs: state.clockOffsetMs,
    hints: [...state.hints.values()],
    actions: [...state.actions].map(([key, action]) => ({ key, action })),
    ipObjects: [...state.ipObjects.values()],
  };
  return `${JSON.stringify(file)}\n`;
}

/** The saved state, an empty one when the file does not exist yet, or a UsageError saying why not. */
export async function loadState(file: string): Promise<EmulatorState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw new FileError(`cannot read emulator data file ${file}: ${(error as Error).message}`, { cause: error });
  }
  let parsed: Partial<StateFile>;
  try {
    parsed = JSON.parse(text) as Partial<StateFile>;
  } catch (error) {
    throw new UsageError(`emulator data file ${file} is not valid JSON (${(error as Error).message}); move it away to start empty`, { cause: error });
  }
  const ok = parsed && parsed.format === FORMAT && parsed.version === VERSION && parsed.nextIds
    && Array.isArray(parsed.hints) && Array.isArray(parsed.actions) && Array.isArray(parsed.ipObjects)
    && typeof parsed.clockOffsetMs === 'number';
  if (!ok) {
    throw new UsageError(`emulator data file ${file} is not a ${FORMAT} version ${VERSION} file; move it away to start empty`);
  }
  const state = parsed as StateFile;
  return {
    nextIds: { ...emptyState().nextIds, ...state.nextIds },
    clockOffsetMs: state.clockOffsetMs,
    hints: new Map(state.hints.map((s) => [s.record.id, s])),
    actions: new Map(state.actions.map(({ key, action }) => [key, action])),
    ipObjects: new Map(state.ipObjects.map((s) => [s.record.id, s])),
  };
}

export class Persister {
  private dirty = false;
  private writing: Promise<void> | undefined;
  private seq = 0;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => string,
  ) {}

  markDirty(): void {
    this.dirty = true;
  }

  /** Resolves once the file holds every change marked before the call. */
  async flush(): Promise<void> {
    while (this.dirty || this.writing) {
      if (this.writing) {
        await this.writing;
        continue;
      }
      this.dirty = false;
      // Serialized synchronously: a consistent snapshot of this instant.
      const text = this.snapshot();
      this.writing = this.write(text)
        .catch((error: unknown) => {
          this.dirty = true;
          throw error;
        })
        .finally(() => {
          this.writing = undefined;
        });
      await this.writing;
    }
  }

  private async write(text: string): Promise<void> {
    const dir = dirname(this.file);
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.${basename(this.file)}.${process.pid}.${++this.seq}.tmp`);
    try {
      const handle = await open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw new FileError(`cannot write emulator data file ${this.file}: ${(error as Error).message}`, { cause: error });
    }
    await syncDirectory(dir);
  }
}

/** Makes the rename itself durable; not every platform allows it, and then it is best effort. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}
