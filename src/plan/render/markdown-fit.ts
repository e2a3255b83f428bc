/**
 * A markdown plan cut to a comment's limit (the forges refuse longer bodies).
 * What a reviewer must still see is kept: the header and the summary, the
 * impact table (its rows as far as a third of the room allows), the
 * deletions named, every change (in full as far as the room allows, the rest
 * one line each, and a count of any that not even a line fits), the
 * checksum line always, and a note that says what was cut. Every part is
 * bounded before it gets here (outside text by outside-text.ts), so no part
 * is cut inside a line.
 */
import type { ImpactSection } from './impact.js';

export interface CommentParts {
  /** Marker, title, context, summary and notices. */
  readonly head: string;
  /** The impact section within a budget of characters (empty without an impact). */
  readonly impact: (budget: number) => ImpactSection;
  readonly warning: { readonly head: string; readonly lines: readonly string[]; readonly tail: string };
  /** Each change block: in full (a diff block, with its heading), and as one line. */
  readonly changes: readonly { readonly full: string; readonly line: string }[];
  readonly notes: string;
  /** The checksum and digests. */
  readonly footer: string;
}

/** Room the cut note takes, its figures included. */
const NOTE_ROOM = 700;
/** Room a "… and N more" line takes. */
const MORE_ROOM = 120;

export function fitComment(parts: CommentParts, max: number): string {
  let budget = max - parts.footer.length - NOTE_ROOM;
  const cut: string[] = [];
  // The head is the plan's own words and a few notices: only a pathological one is cut.
  let head = parts.head;
  if (head.length > budget / 2) {
    head = `${head.slice(0, Math.max(0, Math.floor(budget / 2)))}…\n\n`;
    cut.push('the header is cut');
  }
  budget -= head.length;
  const impact = parts.impact(Math.floor(budget / 3));
  budget -= impact.text.length;
  if (impact.shown < Math.min(impact.total, 50)) cut.push(`the impact table shows ${impact.shown} of its ${impact.total} rows`);

  const deletions = fitLines(parts.warning.lines, budget - parts.warning.head.length - parts.warning.tail.length - MORE_ROOM);
  const hiddenDeletions = parts.warning.lines.length - deletions.length;
  if (hiddenDeletions > 0) deletions.push(`> - … and ${hiddenDeletions} more deletion${hiddenDeletions === 1 ? '' : 's'}, listed in the job summary`);
  const warning = parts.warning.lines.length > 0 ? `${parts.warning.head}${deletions.join('\n')}\n${parts.warning.tail}` : '';
  budget -= warning.length;
  if (hiddenDeletions > 0) cut.push(`${hiddenDeletions} deletion${hiddenDeletions === 1 ? ' is' : 's are'} not named`);

  const changes = fitChanges(parts.changes, budget - MORE_ROOM);
  budget -= changes.text.length;
  const total = parts.changes.length;
  if (changes.full < total) {
    cut.push(`${changes.full} of ${total} changes are shown in full, ${changes.lines} as one line each`
      + `${changes.unlisted > 0 ? `, ${changes.unlisted} not listed` : ''}`);
  }
  const notes = parts.notes.length <= budget && changes.full === total ? parts.notes : '';
  if (parts.notes !== '' && notes === '') cut.push('the notes are left out');

  const note = cut.length > 0
    ? `> [!NOTE]\n> **Cut to fit the comment limit of ${max} characters**: ${cut.join('; ')}. `
      + 'The job summary and the saved plan artifact hold all of it.\n\n'
    : '';
  const body = `${head}${impact.text}${warning}${note}${changes.text}${notes}`;
  // Never past the limit, and never without the checksum line.
  const room = max - parts.footer.length;
  return `${body.length <= room ? body : `${body.slice(0, Math.max(0, room - 2))}…\n`}${parts.footer}`;
}

/** The first lines that fit in `budget` characters, one newline each. */
function fitLines(lines: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let left = budget;
  for (const line of lines) {
    if (line.length + 1 > left) break;
    kept.push(line);
    left -= line.length + 1;
  }
  return kept;
}

/**
 * The changes in order: as many in full as the room allows while every
 * other still gets its line; when not even every line fits, lines only, as
 * many as fit, and a count of the rest.
 */
function fitChanges(changes: CommentParts['changes'], budget: number): { text: string; full: number; lines: number; unlisted: number } {
  const linesCost = changes.reduce((n, c) => n + c.line.length + 1, 0);
  let full = 0;
  if (linesCost <= budget) {
    let left = budget - linesCost;
    while (full < changes.length) {
      const change = changes[full] as CommentParts['changes'][number];
      const extra = change.full.length + 1 - (change.line.length + 1);
      if (extra > left) break;
      left -= extra;
      full++;
    }
  }
  const inFull = changes.slice(0, full).map((c) => c.full);
  const rest = changes.slice(full);
  const listed = full === changes.length ? [] : fitLines(rest.map((c) => c.line), budget - inFull.reduce((n, c) => n + c.length + 1, 0) - 60);
  const unlisted = rest.length - listed.length;
  const text = [
    inFull.length > 0 ? `${inFull.join('\n')}\n` : '',
    listed.length > 0 ? `**Not shown in full** (one line each):\n\n${listed.join('\n')}\n` : '',
    unlisted > 0 ? `- … and ${unlisted} more change${unlisted === 1 ? '' : 's'}, in the job summary and the saved plan\n` : '',
    listed.length > 0 || unlisted > 0 ? '\n' : '',
  ].join('');
  return { text, full, lines: listed.length, unlisted };
}
