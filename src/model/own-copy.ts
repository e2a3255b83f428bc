/**
 * Strings that do not keep a larger one alive. V8 makes a substring of 13
 * characters or more (`slice`, a regex group, a parser's scalar) a view into
 * its parent: keeping the part keeps the whole. Values kept long after the
 * text they were cut from go through here: the policy values js-yaml cuts out
 * of its copy of each file, and the fingerprints read out of listed owner
 * marks (the live state lasts one plan, but it is the plan's peak: 278 to 290
 * against 291 to 298 MB at 50k + 50k once the plan itself allocated less).
 */

/** Shorter substrings are copies already. */
const VIEW_MIN_LENGTH = 13;

/** `text` as a string of its own (the same string when it is short). */
export function ownCopy(text: string): string {
  const length = text.length;
  if (length < VIEW_MIN_LENGTH) return text;
  // Two halves shorter than a view are copies, joined (a fingerprint's 16 digits): half the time of the round trip below.
  if (length < 2 * VIEW_MIN_LENGTH) return text.slice(0, length >> 1) + text.slice(length >> 1);
  // A round trip through JSON is the cheapest copy V8 does not turn back into a view (0.4 µs for a short string).
  return JSON.parse(JSON.stringify(text)) as string;
}
