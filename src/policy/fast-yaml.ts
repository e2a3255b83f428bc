/**
 * The clean path of loading: most policy files are plain YAML without a single
 * diagnostic, and for those the `yaml` library's full document (every node with
 * its source range) costs about 15 times what the data does. `js-yaml` builds
 * the data alone, with the `yaml` library's own scalar rules (its YAML 1.2 core
 * schema, copied below), so both read a file as the same values.
 *
 * Anything this path is not sure to read exactly as `parsePolicyText` would
 * (yaml.ts) is declined, and the caller takes the full path: anchors, aliases
 * and tags (the alias guard counts them there), directives, explicit keys,
 * tabs, a flow collection over several lines (`yaml` warns on its indentation),
 * what may be a collection used as a key, anything `js-yaml` rejects, nesting
 * past MAX_DEPTH, an empty document. The caller also takes the full path for
 * any file with a diagnostic, so positions come from there. A test compares
 * both paths on every policy file of the repository.
 */
import { isWhiteSpace } from '../model/white-space.js';
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';
import { ownCopy } from '../model/own-copy.js';
import { MAX_DEPTH, MAX_NODES } from './yaml.js';

/** The `yaml` library's core schema (`yaml/dist/schema/core`), in its order: the first that matches a plain scalar wins. */
const CORE_SCALARS: readonly [RegExp, (text: string) => unknown][] = [
  [/^(?:~|[Nn]ull|NULL)?$/, () => null],
  [/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === 't' || text[0] === 'T'],
  [/^0o[0-7]+$/, (text) => parseInt(text.substring(2), 8)],
  [/^[-+]?[0-9]+$/, (text) => parseInt(text, 10)],
  [/^0x[0-9a-fA-F]+$/, (text) => parseInt(text.substring(2), 16)],
  [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (text) =>
    text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY],
  [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (text) => parseFloat(text)],
  [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (text) => parseFloat(text)],
];

/** js-yaml's schema on the clean path: the `yaml` library's core scalars (clean-positions.ts parses with it too). */
export const CLEAN_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: CORE_SCALARS.map(([test, construct], i) => new Type(`tag:rampart,core-${i}`, {
    kind: 'scalar',
    resolve: (text: string) => test.test(text),
    construct,
  })),
});

/**
 * Text that may hold what this path declines, one pattern per reason, tried
 * as one regex (one pass over the text). Quoted text can match too; that
 * only costs the full path.
 */
const DECLINED_TEXT = new RegExp([
  // A node property (`&anchor`, `*alias`, `!tag`) or an explicit key (`? `) where a node can start.
  /(?:^|[\s[{,:])[&*!?]/,
  // A directive; a tab.
  /^%/, /\t/,
  // Where a differential fuzz found js-yaml reading other data than the `yaml` library, or accepting
  // what it refuses: a carriage return that ends no line;
  /\r(?!\n)/,
  // `---` or `...` run into other text, or content on the line of a `---`;
  /^(?:---|\.\.\.)[^\s]/, /^---[ ]+[^#\s]/,
  // a byte-order mark past the start;
  /.\ufeff/,
  // a block scalar's explicit indentation or kept final line breaks;
  /(?:^|\s)[|>](?:[1-9]|[+-]?[1-9]?\+|-[1-9])/,
  // a comment right after a quote, a flow indicator or a colon;
  /["'[\]{}:,]#/,
  // a line ending in a backslash (an escaped line break in quotes);
  /\\\r?$/,
  // a sequence item with nothing on its line (js-yaml can take the next, less indented item into it).
  /^[ ]*-[ ]*(?:#[^\n]*)?\r?$/,
].map((pattern) => pattern.source).join('|'), 'msu');
/** A document whose first line of content is indented: js-yaml takes a less indented line after it as more of the same node, the `yaml` library refuses it. */
const INDENTED_ROOT = /^(?:[ ]*(?:#[^\n]*)?\r?\n)*[ ]+[^\s#]/;
/** A flow collection closed right before a `:` indicator may be a key (`[a]: b`), which `js-yaml` would turn into text. */
const COLLECTION_KEY = /[\]}]\s*:(?:\s|$|[,\]}])/m;

/** The file's data, or undefined when only the full path may read it. */
export function parseCleanYaml(text: string): { readonly data: unknown } | undefined {
  if (DECLINED_TEXT.test(text) || COLLECTION_KEY.test(text) || INDENTED_ROOT.test(text) || hasMultiLineFlow(text) || hasCommentAboveDeeperLine(text)) return undefined;
  let data: unknown;
  try {
    data = load(text, { schema: CLEAN_SCHEMA });
  } catch {
    return undefined;
  }
  // No document (an empty file) and shapes the full path rejects are its to report.
  if (data === undefined || data === null || !valuesOwnedWithinBounds(data)) return undefined;
  return { data };
}

/**
 * Whether the data is within the nesting and size bounds the full path
 * enforces; on the way, each string value is replaced by a copy of its own
 * (own-copy.ts): js-yaml cuts values out of
 * a copy of the text it is given (with a terminator appended), and a policy
 * kept after its load (the daemon's, between cycles) kept that second copy
 * of every file alive through its long values (2 MB at 10k rules + 50k IP
 * values).
 */
function valuesOwnedWithinBounds(root: unknown): boolean {
  let values = 0;
  const visit = (value: unknown, depth: number): boolean => {
    if (++values > MAX_NODES) return false;
    if (value === null || typeof value !== 'object') return true;
    if (depth >= MAX_DEPTH) return false;
    const container = value as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const child = container[key];
      if (typeof child === 'string') {
        if (++values > MAX_NODES) return false;
        container[key] = ownCopy(child);
      } else if (!visit(child, depth + 1)) {
        return false;
      }
    }
    return true;
  };
  return visit(root, 0);
}

/**
 * Whether a line opens more flow brackets than it closes (quoted text aside,
 * roughly), or ends inside quotes: a flow collection or a quoted scalar
 * continued on the next line, whose indentation the `yaml` library checks
 * (and where a differential fuzz found the two readers apart). A quote opens
 * at the start of a line or after white space, `[`, `{`, `,` or `:`; a
 * comment starts with `#` at the start of a line or after a space. One scan
 * by character code: the split into lines and a regex per quote took 54 ms
 * of a load of 10k rules + 50k IP values.
 */
export function hasMultiLineFlow(text: string): boolean {
  let open = 0;
  /** The open quote's character code, 0 outside quotes. */
  let quote = 0;
  let lineStart = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : NEWLINE;
    if (c === NEWLINE) {
      if (open > 0 || quote !== 0) return true;
      open = 0;
      lineStart = i + 1;
    } else if (quote !== 0) {
      // An escape never takes the line's end with it; in single quotes, `''` is a quote.
      if (c === quote && c === SINGLE_QUOTE && text.charCodeAt(i + 1) === SINGLE_QUOTE) i++;
      else if (c === quote) quote = 0;
      else if (c === BACKSLASH && quote === DOUBLE_QUOTE && i + 1 < text.length && text.charCodeAt(i + 1) !== NEWLINE) i++;
    } else if ((c === DOUBLE_QUOTE || c === SINGLE_QUOTE) && (i === lineStart || opensQuote(text.charCodeAt(i - 1)))) {
      quote = c;
    } else if (c === HASH && (i === lineStart || text.charCodeAt(i - 1) === SPACE)) {
      // The rest of the line is a comment: on to its end.
      const end = text.indexOf('\n', i);
      i = (end === -1 ? text.length : end) - 1;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      open++;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      open--;
    }
  }
  return false;
}

/**
 * Whether a comment line is followed (past blank lines and other comments) by
 * a line indented deeper than the comment. Inside a node that goes on over
 * several lines (a value on the lines after its key or item indicator, a
 * multi-line plain scalar), js-yaml and the `yaml` library read such a
 * comment differently: other data, or an error only one of them reports (a
 * differential fuzz found 26 such texts in 100,000). A comment aligned with
 * the line it precedes, as policies write them, is no such line.
 */
export function hasCommentAboveDeeperLine(text: string): boolean {
  if (!text.includes('#')) return false;
  /** The least indentation of the comment lines since the last content line; -1 when there were none. */
  let comment = -1;
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let i = start;
    while (i < end && text.charCodeAt(i) === SPACE) i++;
    const c = text.charCodeAt(i);
    const indent = i - start;
    if (c === HASH) {
      if (comment < 0 || indent < comment) comment = indent;
    } else if (i < end && c !== RETURN) {
      if (comment >= 0 && indent > comment) return true;
      comment = -1;
    }
    start = end + 1;
  }
  return false;
}

const NEWLINE = 10;
const RETURN = 13;
const SPACE = 32;
const DOUBLE_QUOTE = 34;
const HASH = 35;
const SINGLE_QUOTE = 39;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** What a quote may follow and still open quoted text: white space, `[`, `{`, `,` or `:`. */
function opensQuote(previous: number): boolean {
  return isWhiteSpace(previous) || previous === OPEN_BRACKET || previous === OPEN_BRACE || previous === COMMA || previous === COLON;
}
