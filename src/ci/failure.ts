/**
 * The comment a failed run leaves in place of the plan: a red title, the step
 * that failed and its errors, so the last good plan never stays on the pull
 * request looking current. Pure.
 */
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

/** A fenced block that nothing in `text` can close: the fence is longer than any backtick run. */
function fenced(text: string): { open: string; close: string } {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return { open: `${fence}text\n`, close: `\n${fence}\n` };
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
  const errors = failure.errors.replace(/\r\n/g, '\n').trimEnd() || '(the step printed nothing; see the CI run)';
  const { open, close } = fenced(errors);
  const room = failure.maxChars - head.length - open.length - close.length - 200;
  if (errors.length <= room) return `${head}\n${open}${errors}${close}`;
  // Keep the start (the first errors name the cause) and say how much was left out.
  const kept = errors.slice(0, Math.max(0, room));
  const cut = kept.slice(0, Math.max(0, kept.lastIndexOf('\n')));
  const left = errors.slice(cut.length).split('\n').filter((l) => l !== '').length;
  return `${head}\n${open}${cut}${close}\n_${left} more line${left === 1 ? '' : 's'} in the CI run's log._\n`;
}
