/**
 * The comment a failed run leaves in place of the plan: a red title, the step
 * that failed and its errors, so the last good plan never stays on the pull
 * request looking current. Pure.
 */
import { fencedBlock } from '../outside-text.js';
import { MARKDOWN_MARKER } from '../plan/render/markdown.js';
import { commentHeader, escapeMarkdown, type CommentContext } from '../plan/render/header.js';

export interface FailureComment {
  /** The step that failed: `validate`, `plan`, ... */
  readonly step: string;
  /** What it printed (validation diagnostics, the API error). */
  readonly errors: string;
  readonly context?: CommentContext;
  /** Longest output (the forge's comment limit). */
  readonly maxChars: number;
}

const LEVELS: Readonly<Record<number, string>> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/**
 * The step's output as a reviewer reads it: Rampart's JSON log lines (on
 * stderr outside a terminal) become `error: message`, and those below warning
 * are left out; every other line stays as it is.
 */
export function readableErrors(output: string): string {
  const lines: string[] = [];
  for (const line of output.replace(/\r\n/g, '\n').split('\n')) {
    let entry: { level?: unknown; msg?: unknown; err?: { message?: unknown } } | undefined;
    try {
      entry = line.startsWith('{') ? (JSON.parse(line) as typeof entry) : undefined;
    } catch {
      entry = undefined;
    }
    if (entry === undefined || typeof entry.level !== 'number' || typeof entry.msg !== 'string') {
      lines.push(line);
      continue;
    }
    if (entry.level < 40) continue;
    const cause = typeof entry.err?.message === 'string' && entry.err.message !== entry.msg ? `: ${entry.err.message}` : '';
    lines.push(`${LEVELS[entry.level] ?? 'error'}: ${entry.msg}${cause}`);
  }
  return lines.join('\n');
}

export function renderFailureComment(failure: FailureComment): string {
  const step = escapeMarkdown(failure.step);
  const head = [
    MARKDOWN_MARKER,
    `### ❌ Rampart ${step} failed`,
    '',
    ...(failure.context ? [commentHeader(failure.context), ''] : []),
    '> [!CAUTION]',
    `> **The \`${failure.step.replace(/`/g, '')}\` step failed: there is no plan for this commit.** ` +
      'An earlier plan shown here no longer applies. Fix what is below and push again.',
    '',
  ].join('\n');
  const errors = readableErrors(failure.errors).trim() || '(the step printed nothing; see the CI run)';
  const block = (text: string) => `${fencedBlock('text', text)}\n`;
  const room = failure.maxChars - head.length - block('').length - 200;
  if (errors.length <= room) return `${head}\n${block(errors)}`;
  // Keep the start (the first errors name the cause) and say how much was left out.
  const kept = errors.slice(0, Math.max(0, room));
  const cut = kept.slice(0, Math.max(0, kept.lastIndexOf('\n')));
  const left = errors.slice(cut.length).split('\n').filter((l) => l !== '').length;
  return `${head}\n${block(cut)}\n_${left} more line${left === 1 ? '' : 's'} in the CI run's log._\n`;
}
