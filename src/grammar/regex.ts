/**
 * Regex check. The service evaluates PCRE; Node has no PCRE, so a pattern is
 * compiled as a JavaScript RegExp (without the `u` flag, whose strictness
 * would reject escapes PCRE accepts) after rewriting the common PCRE-only
 * constructs that JavaScript lacks. It catches the real mistakes (unbalanced
 * groups, dangling quantifiers, bad ranges) but is an approximation.
 */

export const REGEX_DIALECT = 'JavaScript RegExp approximating the service\'s PCRE';

/** Undefined when the pattern compiles; otherwise the reason. */
export function regexProblem(pattern: string): string | undefined {
  let source = pattern;
  let flags = '';
  // Leading inline flags, e.g. (?i) or (?is): JavaScript takes them as flags.
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    flags = [...new Set((inline[1] ?? '').replace(/x/g, ''))].join('');
  }
  source = source
    .replace(/\\[AG]/g, '^')
    .replace(/\\[zZ]/g, '$')
    .replace(/\(\?>/g, '(?:') // atomic group → plain group
    .replace(/([*+?}])\+/g, '$1'); // possessive quantifier → greedy
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  }
}
