/** Collects one file's diagnostics, placing each at the node a path names. */
import type { Source } from '../model/source.js';
import type { Path, SourceMap } from './source-map.js';
import type { Diagnostic, Severity } from '../diagnostic.js';

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly file: string,
    readonly map: SourceMap,
  ) {}

  error(code: string, message: string, path: Path, options: { atKey?: boolean } = {}): void {
    this.report('error', code, message, path, options.atKey ?? false);
  }

  warning(code: string, message: string, path: Path, options: { atKey?: boolean } = {}): void {
    this.report('warning', code, message, path, options.atKey ?? false);
  }

  /** A diagnostic made by the check itself (one that writes its message when read). */
  add(diagnostic: Diagnostic): void {
    this.diagnostics.push(diagnostic);
  }

  position(path: Path, atKey = false): { line: number; col: number } {
    return atKey ? this.map.keyAt(path) : this.map.at(path);
  }

  /** Where the objects compiled from the declaration at `path` come from; named `name`, or by its path. */
  source(path: Path, name?: string, options: { atKey?: boolean } = {}): Source {
    return this.map.source(this.file, path, name, options.atKey ?? false);
  }

  private report(severity: Severity, code: string, message: string, path: Path, atKey: boolean): void {
    const { line, col } = this.position(path, atKey);
    this.diagnostics.push({ file: this.file, line, col, severity, code, message });
  }
}
