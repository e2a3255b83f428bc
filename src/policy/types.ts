/**
 * The values the policy pipeline hands out: diagnostics (every problem at
 * once, each at a file:line:col) and the result of loading a directory.
 */
import type { Diagnostic } from '../diagnostic.js';
import type { DesiredState } from '../model/state.js';

export interface Position {
  readonly line: number;
  readonly col: number;
}

/** One policy file's text, as read from disk or given by a test. */
export interface PolicyText {
  /** Display path, used in diagnostics and sources. */
  readonly file: string;
  readonly text: string;
}

export interface PolicyOptions {
  /** The moment expiries are compared with; defaults to now. */
  readonly now?: Date;
  /** Largest file accepted, in bytes (default 1 MiB). */
  readonly maxFileBytes?: number;
  /** Largest number of alias dereferences per file (default 100). */
  readonly maxAliasCount?: number;
}

export interface PolicyLoadResult {
  /** The resolved real path of the policy directory (or file). */
  readonly root: string;
  /** False when the policy directory does not exist. */
  readonly exists: boolean;
  /** Display paths of the policy files read, sorted. */
  readonly files: string[];
  readonly diagnostics: Diagnostic[];
  /** Only when no diagnostic is an error. Empty (not absent) when there are no files. */
  readonly desired?: DesiredState;
  /** sha256 (hex) over the sorted (root-relative path, content) of every file read. */
  readonly digest: string;
}

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_ALIAS_COUNT = 100;

/** Diagnostics in a stable order: by file, position, then code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      cmp(a.file, b.file) || a.line - b.line || a.col - b.col || cmp(a.code, b.code) || cmp(a.message, b.message),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
