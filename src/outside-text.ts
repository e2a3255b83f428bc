/**
 * Text that came from outside (a recorded request's path, host, value or id;
 * an error the service sent) as it leaves Rampart, one function per output,
 * so no renderer prints it raw:
 * - a terminal (`terminalText`): control characters shown escaped (`\x1b`,
 *   `\n`, `\u202e`), so a recorded path cannot set the title, clear the
 *   screen or draw a line of its own;
 * - inside code (`codeText`): the same, and backticks escaped, inside a
 *   fence (`fencedBlock`, `inlineCode`) longer than any backtick run in it;
 * - markdown prose and table cells (`markdownText`): the same, then
 *   markdown's specials escaped, so it adds no heading, link or column.
 * Each value is cut to a bounded length, escapes included, with an ellipsis:
 * a 300 KB recorded path is 200 characters of any output.
 */

/** Characters of escaped output one value may take. */
export const OUTSIDE_TEXT_MAX = 200;

const ELLIPSIS = '…';

/** For a terminal (the text plan, tune): controls shown escaped, a backslash doubled so every escape reads one way. */
export function terminalText(text: string, max = OUTSIDE_TEXT_MAX): string {
  return bounded(text, max, terminalPiece);
}

/** Inside a code span or block: as for a terminal, and backticks escaped, so no value closes its fence. */
export function codeText(text: string, max = OUTSIDE_TEXT_MAX): string {
  return bounded(text, max, (char) => (char === '`' ? '\\`' : terminalPiece(char)));
}

/** In markdown prose or a table cell: as for a terminal, then markdown's specials escaped (a pipe too). */
export function markdownText(text: string, max = OUTSIDE_TEXT_MAX): string {
  return bounded(text, max, (char) => escapeMarkdown(terminalPiece(char)));
}

/** User text in markdown and HTML contexts: no markup, no table breaks (policy text, unbounded; `markdownText` for outside text). */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#~]/g, (c) => `\\${c}`)
    .replace(/\r?\n|\r/g, ' ');
}

/** A fenced code block no line of `body` can close: its fence is longer than any backtick run inside. */
export function fencedBlock(info: string, body: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Inline code that holds any text: a fence longer than any backtick run inside. */
export function inlineCode(text: string): string {
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  return `${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** The pieces of `text` (one per code point) joined until the next would pass `max`; then an ellipsis. */
function bounded(text: string, max: number, piece: (char: string) => string): string {
  let out = '';
  for (const char of text) {
    const next = piece(char);
    if (out.length + next.length > max) return `${out}${ELLIPSIS}`;
    out += next;
  }
  return out;
}

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/** One code point as a terminal may show it. */
function terminalPiece(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) as number;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (isInvisibleControl(code)) return `\\u${code.toString(16).padStart(4, '0')}`;
  return char;
}

/** Line and paragraph separators, direction overrides and isolates (they reorder what a reader sees), and lone surrogates. */
function isInvisibleControl(code: number): boolean {
  return code === 0x2028 || code === 0x2029 || code === 0x061c || code === 0x200e || code === 0x200f
    || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || (code >= 0xd800 && code <= 0xdfff);
}
