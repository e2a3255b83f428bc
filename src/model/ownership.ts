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

/** The mark itself, from `[managed-by:` to the closing bracket that ends the text. */
const MARK_AT = /\[managed-by:([A-Za-z0-9_.-]+)((?:\s+[a-z]+:[^\s\]]+)*)\]$/y;
const MARK_START = '[managed-by:';
const ATTRIBUTE = /([a-z]+):([^\s\]]+)/g;
const WHITESPACE = /\s/;

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
 * character from which the rest of the text is one well-formed mark. Written
 * as a scan rather than one regex with a lazy prefix: every listed object
 * goes through here (60,000 of them took 0.3 s of a read that way).
 */
export function readOwnerMark(text: string | null | undefined): ReadMark {
  if (text === null || text === undefined || text === '') return {};
  if (text.charCodeAt(text.length - 1) !== 93 /* ] */) return { text };
  // A mark holds no `]` but its last character: it starts after any earlier one.
  let at = text.indexOf(MARK_START, text.lastIndexOf(']', text.length - 2) + 1);
  for (; at !== -1; at = text.indexOf(MARK_START, at + 1)) {
    if (at > 0 && !WHITESPACE.test(text.charAt(at - 1))) continue;
    MARK_AT.lastIndex = at;
    const match = MARK_AT.exec(text);
    if (match) return markOf(at > 1 ? text.slice(0, at - 1) : undefined, match[1] as string, match[2] ?? '');
  }
  return { text };
}

function markOf(userText: string | undefined, owner: string, attributes: string): ReadMark {
  let fingerprint: string | undefined;
  let name: string | undefined;
  let adopted = false;
  ATTRIBUTE.lastIndex = 0;
  for (let found = ATTRIBUTE.exec(attributes); found; found = ATTRIBUTE.exec(attributes)) {
    const [, key, value] = found;
    if (key === 'fp') fingerprint = value;
    else if (key === 'name') name = decodeName(value as string);
    else if (key === 'adopted') adopted = value === '1';
  }
  const mark: { text?: string; owner: string; fingerprint?: string; name?: string; adopted?: boolean } = { owner };
  if (userText) mark.text = userText;
  if (fingerprint !== undefined) mark.fingerprint = fingerprint;
  if (name !== undefined) mark.name = name;
  if (adopted) mark.adopted = true;
  return mark;
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
