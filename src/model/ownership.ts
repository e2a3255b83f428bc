/**
 * Rampart's owner mark, written at the end of a rule's `comment` and an IP
 * object's `reason`. Only objects carrying our own owner's mark are ever deleted.
 */

const MARK = /^(?:(.*?)\s)?\[managed-by:([A-Za-z0-9_.-]+)\]$/s;

export const DEFAULT_OWNER = 'rampart';

/** Owner names end up inside brackets in free text; keep them simple. */
export function isValidOwner(owner: string): boolean {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(owner);
}

/** `text [managed-by:owner]`, or the bare mark when there is no text. */
export function withOwnerMark(text: string | undefined, owner: string): string {
  return text ? `${text} [managed-by:${owner}]` : `[managed-by:${owner}]`;
}

/** Splits a live comment or reason into the user's text and the owner, if marked. */
export function readOwnerMark(text: string | null | undefined): { text?: string; owner?: string } {
  if (text === null || text === undefined || text === '') return {};
  const match = MARK.exec(text);
  if (!match) return { text };
  const userText = match[1];
  return userText ? { text: userText, owner: match[2] } : { owner: match[2] };
}
