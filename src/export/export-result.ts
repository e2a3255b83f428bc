/** What `rampart export` gives back: the files, what it left out, and its record. */
import type { ExportFile } from './export-file.js';
import type { ExportRecord } from './record.js';
import type { Skipped } from './types.js';

export interface ExportResult {
  /** Sorted by name. */
  readonly files: readonly ExportFile[];
  /** Sorted by kind, id, value. */
  readonly skipped: readonly Skipped[];
  /** The unmanaged objects written, saved next to the files (record.ts). */
  readonly record: ExportRecord;
}
