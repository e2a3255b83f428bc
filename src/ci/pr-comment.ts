/**
 * The one plan comment on a pull request (or merge request): find it by its
 * hidden marker and decide whether to create it, update it in place, or leave
 * it. Pure: the runners (github.ts, gitlab.ts) do the HTTP.
 */

import { RUN_LINE_MARKER } from '../plan/render/header.js';
import { MARKDOWN_MARKER } from '../plan/render/markdown.js';

/** The hidden marker the markdown plan starts with. */
export const PLAN_MARKER = MARKDOWN_MARKER;

/** GitHub and GitLab both refuse longer comment bodies. */
export const MAX_COMMENT_CHARS = 65_536;

export interface ExistingComment {
  readonly id: number;
  readonly body: string;
  /** Login (GitHub) or username (GitLab) of the author, when known. */
  readonly author?: string;
  /** ISO 8601. */
  readonly createdAt?: string;
}

export type CommentDecision =
  | { readonly action: 'create' }
  | { readonly action: 'update'; readonly id: number }
  | { readonly action: 'none'; readonly id: number };

export interface DecideOptions {
  readonly marker?: string;
  /** Only comments by this author count as ours; undefined accepts any author. */
  readonly author?: string;
}

/**
 * No comment of ours with the marker → create. Otherwise the newest one is
 * the plan comment: update it, or do nothing when its body is already the new
 * body. Older marked comments (a past race, a manual copy) are left alone.
 */
export function decideComment(existing: readonly ExistingComment[], body: string, options: DecideOptions = {}): CommentDecision {
  const marker = options.marker ?? PLAN_MARKER;
  const ours = existing.filter((c) => c.body.includes(marker) && (options.author === undefined || c.author === options.author));
  const newest = ours.reduce<ExistingComment | undefined>((best, c) => (best === undefined || isNewer(c, best) ? c : best), undefined);
  if (!newest) return { action: 'create' };
  if (sameBody(newest.body, body)) return { action: 'none', id: newest.id };
  return { action: 'update', id: newest.id };
}

function isNewer(a: ExistingComment, b: ExistingComment): boolean {
  const ta = a.createdAt ? Date.parse(a.createdAt) : Number.NaN;
  const tb = b.createdAt ? Date.parse(b.createdAt) : Number.NaN;
  if (Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb) return ta > tb;
  return a.id > b.id;
}

/**
 * The same comment: equal but for the run line (which run, when, from which
 * commit), so a run that finds the same plan edits nothing and notifies no one.
 * The forges normalise line endings and trailing whitespace of stored bodies.
 */
function sameBody(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\r\n/g, '\n').split('\n').filter((line) => !line.includes(RUN_LINE_MARKER)).join('\n').trimEnd();
  return norm(a) === norm(b);
}

/**
 * The body to post: the marker first if the text lacks it (so the next run
 * finds it), and cut to the forge's limit with a note when too long.
 */
export function commentBody(text: string, options: { marker?: string; maxChars?: number } = {}): string {
  const marker = options.marker ?? PLAN_MARKER;
  const max = options.maxChars ?? MAX_COMMENT_CHARS;
  const body = text.includes(marker) ? text : `${marker}\n${text}`;
  if (body.length <= max) return body;
  const note = '\n\n…\n\n**The plan is too long for a comment and was cut here.** The full plan is in the job log and summary.\n';
  const keep = Math.max(0, max - note.length);
  let cut = body.slice(0, keep);
  const newline = cut.lastIndexOf('\n');
  if (newline > keep / 2) cut = cut.slice(0, newline);
  // Keep the marker even in a pathological cut.
  if (!cut.includes(marker)) cut = `${marker}\n${cut.slice(0, Math.max(0, keep - marker.length - 1))}`;
  return `${cut}${note}`;
}
