/**
 * Diagnostics about declarations in several files, placed at the declaration
 * (a Source rather than a path of one document). One declaration compiles to
 * an object per application, so the same finding can come up more than once:
 * each is said once.
 */
import type { Diagnostic, Severity } from '../diagnostic.js';
import type { Source } from '../model/source.js';

export class Findings {
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(severity: Severity, code: string, at: Source, message: string): void {
    const key = `${at.file}:${at.line}:${at.col}:${code}:${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.diagnostics.push({ file: at.file, line: at.line, col: at.col, severity, code, message });
  }
}

/** `file:line:col` of a declaration, for messages that point at another one. */
export function where(source: Source): string {
  return `${source.file}:${source.line}:${source.col}`;
}
