/**
 * The emulator's own check of a regular expression as the service takes it.
 * The service speaks PCRE; Node does not, so a pattern is compiled as a
 * JavaScript RegExp (no `u` flag: PCRE accepts escapes `u` would reject) after
 * mapping the PCRE-only constructs real rules use onto JavaScript ones.
 * Deliberately independent of the client's regex check: this is the oracle.
 */

/** PCRE-only syntax → a JavaScript equivalent good enough to judge compilation. */
const PCRE_TO_JS: readonly (readonly [RegExp, string])[] = [
  [/\\A/g, '^'],
  [/\\[zZ]/g, '$'],
  [/\(\?>/g, '(?:'], // atomic group
  [/([*+?}])\+/g, '$1'], // possessive quantifier
];

/** Leading inline options `(?i)`, `(?ims)`; `x` has no JavaScript flag and changes nothing here. */
const INLINE_FLAGS = /^\(\?([imsx]+)\)/;

export function regexCompiles(pattern: string): boolean {
  let source = pattern;
  let flags = '';
  const inline = INLINE_FLAGS.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    flags = [...new Set((inline[1] ?? '').replace(/x/g, ''))].join('');
  }
  for (const [from, to] of PCRE_TO_JS) source = source.replace(from, to);
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}
