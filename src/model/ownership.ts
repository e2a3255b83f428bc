/**
 * Rampart's owner mark, written at the end of a rule's `comment` and an IP
 * object's `reason`. Only objects carrying our own owner's mark are ever deleted.
 *
 * The mark may carry attributes after the owner (`[managed-by:rampart fp:3f2a…]`).
 * `fp` is the fingerprint of the declared form the object was created from
 * (model/fingerprint.ts), the way `kubectl apply` keeps the last applied
 * configuration on the object: however the service rewrites the stored fields,
 * the mark still says which declaration the object is. Marks written before
 * attributes existed (`[managed-by:rampart]`) read back with no fingerprint, and
 * attributes this version does not know are ignored. `name` is the rule's name
 * in the policies (percent-encoded), so a later plan can say which rule it
 * deletes and pair the delete with the create that takes its place.
 */

import { ownCopy } from './own-copy.js';
import { isWhiteSpace } from './white-space.js';

const MARK_START = '[managed-by:';

export const DEFAULT_OWNER = 'rampart';

/** Owner names end up inside brackets in free text; keep them simple. */
export function isValidOwner(owner: string): boolean {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(owner);
}

export interface OwnerMark {
  readonly owner: string;
  /** Fingerprint of the declared form the object was written from. */
  readonly fingerprint?: string;
  /** The rule's name in the policies. */
  readonly name?: string;
  /** Rampart adopted the object rather than created it (the service may have made it, and may keep it). */
  readonly adopted?: boolean;
}

/** `text [managed-by:owner fp:… name:… adopted:1]`, or the bare mark when there is no text. */
export function withOwnerMark(text: string | undefined, mark: OwnerMark): string {
  let attributes = mark.fingerprint !== undefined ? ` fp:${mark.fingerprint}` : '';
  if (mark.name !== undefined && mark.name !== '') attributes += ` name:${encodeName(mark.name)}`;
  if (mark.adopted) attributes += ' adopted:1';
  const tag = `${MARK_START}${mark.owner}${attributes}]`;
  return text ? `${text} ${tag}` : tag;
}

export interface ReadMark {
  /** The user's text without the mark. */
  readonly text?: string;
  readonly owner?: string;
  readonly fingerprint?: string;
  readonly name?: string;
  readonly adopted?: boolean;
}

/**
 * Splits a live comment or reason into the user's text and the mark, if any.
 * The mark is the first `[managed-by:` at the start or after a whitespace
 * character from which the rest of the text is one well-formed mark:
 * `[managed-by:OWNER( KEY:VALUE)*]`, as the regex
 * `\[managed-by:([A-Za-z0-9_.-]+)((?:\s+[a-z]+:[^\s\]]+)*)\]$` reads it.
 * Written as a scan: every listed object goes through here, and regex
 * matches allocated their arrays and captures for each (18 MB of a read of
 * 50,000 IP values; one regex with a lazy prefix took 0.3 s of it before).
 */
export function readOwnerMark(text: string | null | undefined): ReadMark {
  if (text === null || text === undefined || text === '') return {};
  if (text.charCodeAt(text.length - 1) !== CLOSE) return { text };
  // A mark holds no `]` but its last character: it starts after any earlier one.
  let at = text.indexOf(MARK_START, text.lastIndexOf(']', text.length - 2) + 1);
  for (; at !== -1; at = text.indexOf(MARK_START, at + 1)) {
    if (at > 0 && !isWhiteSpace(text.charCodeAt(at - 1))) continue;
    const mark = markAt(text, at);
    if (mark) return mark;
  }
  return { text };
}

const CLOSE = 93; // ]
const COLON = 58;

/** The mark from `at` to the closing bracket that ends `text`, or undefined if that is no well-formed mark. */
function markAt(text: string, at: number): ReadMark | undefined {
  const close = text.length - 1;
  let i = at + MARK_START.length;
  const ownerStart = i;
  while (i < close && isOwnerCharacter(text.charCodeAt(i))) i++;
  if (i === ownerStart) return undefined;
  const ownerEnd = i;
  let fingerprint: string | undefined;
  let name: string | undefined;
  let adopted = false;
  // Each attribute: whitespace, a lower-case key, a colon, a value up to whitespace or the bracket.
  while (i < close) {
    if (!isWhiteSpace(text.charCodeAt(i))) return undefined;
    while (i < close && isWhiteSpace(text.charCodeAt(i))) i++;
    const keyStart = i;
    while (i < close && isLowerCase(text.charCodeAt(i))) i++;
    if (i === keyStart || i === close || text.charCodeAt(i) !== COLON) return undefined;
    const keyEnd = i++;
    const valueStart = i;
    for (let c = text.charCodeAt(i); i < close && !isWhiteSpace(c) && c !== CLOSE; c = text.charCodeAt(++i));
    if (i === valueStart) return undefined;
    // The last of a key written twice counts; keys compared in place, not cut out.
    // The fingerprint as a string of its own: cut out, it kept the whole listed comment alive (10 MB at 50k + 50k).
    if (isKey(text, keyStart, keyEnd, 'fp')) fingerprint = ownCopy(text.slice(valueStart, i));
    else if (isKey(text, keyStart, keyEnd, 'name')) name = decodeName(text.slice(valueStart, i));
    else if (isKey(text, keyStart, keyEnd, 'adopted')) adopted = i - valueStart === 1 && text.charCodeAt(valueStart) === 49 /* 1 */;
  }
  // Members in one order, so every mark read has one shape.
  const mark: { text?: string; owner: string; fingerprint?: string; name?: string; adopted?: boolean } = { owner: text.slice(ownerStart, ownerEnd) };
  if (at > 1) mark.text = text.slice(0, at - 1);
  if (fingerprint !== undefined) mark.fingerprint = fingerprint;
  if (name !== undefined) mark.name = name;
  if (adopted) mark.adopted = true;
  return mark;
}

function isKey(text: string, start: number, end: number, key: string): boolean {
  return end - start === key.length && text.startsWith(key, start);
}

/** `[A-Za-z0-9_.-]` */
function isOwnerCharacter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

function isLowerCase(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Spaces, brackets and the like would end the attribute or the mark: percent-encoded. */
function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decodeName(value: string): string | undefined {
  // Most names need no escape.
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
