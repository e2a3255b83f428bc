/**
 * Diagnostics → text for people, JSON for machines, GitHub annotations and a
 * step summary. Pure functions over values, so `plan` reuses them.
 */
import { annotation } from '../github-commands.js';
import type { Diagnostic } from '../diagnostic.js';

export { escapeData, escapeProperty } from '../github-commands.js';

export type DiagnosticFormat = 'text' | 'json' | 'github';

export interface DiagnosticReport {
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** GitHub shows at most 10 error and 10 warning annotations per step. */
export const GITHUB_ANNOTATION_LIMIT = 10;

export interface FormatOptions {
  /** GitHub annotations: a file's path from the repository root (see repositoryPath). */
  readonly path?: (file: string) => string;
}

export function formatDiagnostics(report: DiagnosticReport, format: DiagnosticFormat, options: FormatOptions = {}): string {
  if (format === 'json') return formatJson(report);
  if (format === 'github') return formatGithub(report, options);
  return formatText(report);
}

export function counts(report: DiagnosticReport): { errors: number; warnings: number } {
  const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: report.diagnostics.length - errors };
}

/** `policies/shop.yaml:12:9: error: message [code]` */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.col}` : d.file;
  return `${where}: ${d.severity}: ${d.message} [${d.code}]`;
}

export function summaryLine(report: DiagnosticReport): string {
  const { errors, warnings } = counts(report);
  const files = plural(report.files.length, 'policy file');
  if (report.files.length === 0 && errors === 0) return 'no policy files found';
  if (errors === 0) return `${files} valid${warnings > 0 ? ` (${plural(warnings, 'warning')})` : ''}`;
  return `${files}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

export function formatText(report: DiagnosticReport): string {
  return [...report.diagnostics.map(formatDiagnostic), summaryLine(report)].join('\n') + '\n';
}

export function formatJson(report: DiagnosticReport): string {
  const { errors, warnings } = counts(report);
  return JSON.stringify({ valid: errors === 0, files: report.files, errors, warnings, diagnostics: report.diagnostics }, null, 2) + '\n';
}

export function formatGithub(report: DiagnosticReport, options: FormatOptions = {}): string {
  const path = options.path ?? ((file: string) => file);
  const lines: string[] = [];
  for (const severity of ['error', 'warning'] as const) {
    const all = report.diagnostics.filter((d) => d.severity === severity);
    for (const d of all.slice(0, GITHUB_ANNOTATION_LIMIT)) {
      const where: Record<string, number> = d.line > 0 ? { line: d.line, col: d.col } : {};
      lines.push(annotation(severity, { file: path(d.file), ...where, title: `rampart ${d.code}` }, d.message));
    }
    if (all.length > GITHUB_ANNOTATION_LIMIT) {
      lines.push(`${all.length - GITHUB_ANNOTATION_LIMIT} more ${severity}s not annotated; see the step summary or run rampart validate`);
    }
  }
  lines.push(summaryLine(report));
  return lines.join('\n') + '\n';
}

/** The full list as Markdown, for `$GITHUB_STEP_SUMMARY`. */
export function formatMarkdown(report: DiagnosticReport): string {
  const { errors } = counts(report);
  const lines = [`### Rampart policy validation: ${errors === 0 ? 'valid' : 'invalid'}`, '', summaryLine(report), ''];
  if (report.diagnostics.length > 0) {
    lines.push('| | location | code | message |', '|---|---|---|---|');
    for (const d of report.diagnostics) {
      const where = d.line > 0 ? `${d.file}:${d.line}:${d.col}` : d.file;
      lines.push(`| ${d.severity === 'error' ? '❌' : '⚠️'} | \`${cell(where)}\` | ${cell(d.code)} | ${cell(d.message)} |`);
    }
    lines.push('');
  }
  return lines.join('\n') + '\n';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
