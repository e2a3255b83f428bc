/**
 * The write journal kept on disk (`--journal FILE`), so a process killed right
 * after a write still knows about it when it starts again and the listing has
 * not caught up: no duplicate create, no repeated delete. One JSON line per
 * write, appended synchronously before the next call; compacted on open.
 * In Kubernetes an emptyDir keeps it across container restarts.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FileError } from '../errors.js';
import type { Logger } from '../log.js';
import { type JournalEvent, WriteJournal } from './write-journal.js';

export function openJournalFile(file: string, options: { ttlMs?: number; logger?: Logger; now?: () => number } = {}): WriteJournal {
  const journal = new WriteJournal(options.ttlMs, options.now);
  // Replayed in file order: an intent, then (if the process lived to hear it) its completion.
  let skipped = 0;
  for (const line of readLines(file)) {
    try {
      // A line of a class this process does not know is no write of its own.
      if (!journal.replay(JSON.parse(line) as JournalEvent, true)) skipped++;
    } catch {
      // A line cut short by a kill mid-append: the write it described is in the listing by now or never happened.
      skipped++;
    }
  }
  if (skipped > 0) options.logger?.warn({ file, skipped }, 'ignored unreadable journal lines');
  const events = journal.events();
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, events.map((event) => JSON.stringify(event) + '\n').join(''));
    renameSync(temporary, file);
  } catch (error) {
    throw new FileError(`cannot write the journal file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  if (events.length > 0) options.logger?.info({ file, remembered: events.length }, 'recent writes read from the journal');
  journal.sink = (event) => appendFileSync(file, JSON.stringify(event) + '\n');
  return journal;
}

function readLines(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new FileError(`cannot read the journal file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  return text.split('\n').filter((line) => line.trim() !== '');
}
