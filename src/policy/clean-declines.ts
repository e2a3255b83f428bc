/**
 * The texts the clean path (clean-yaml.ts) leaves to the full parse
 * (yaml.ts) before reading them: layouts where js-yaml reads other data than
 * the `yaml` library, accepts what it refuses, or reports nodes whose
 * positions cannot be trusted, and what the full parse alone checks (the
 * alias guard counts anchors and aliases, tags, directives). Each scan is
 * cheap and may decline a text the clean path would read right: that only
 * costs the full parse. The differential tests compare both readers on what
 * passes.
 */
import { isWhiteSpace } from '../model/white-space.js';

/**
 * Text that may hold what this path declines, one pattern per reason, tried
 * as two regexes: the patterns that start at a rare character, and those
 * that start at a line's start or after a space, which the engine tries at
 * almost every character. As one regex, the two cost the validate bench's
 * 1,000 files about 1.5 times as much. Quoted text can match too; that only
 * costs the full path.
 */
const DECLINED_TEXT = [
  [
    // A tab.
    /\t/,
    // Where a differential fuzz found js-yaml reading other data than the `yaml` library, or accepting
    // what it refuses: a carriage return that ends no line;
    /\r(?!\n)/,
    // a byte-order mark past the start;
    /.\ufeff/,
    // a comment right after a quote, a flow indicator or a colon;
    /["'[\]{}:,]#/,
    // a line ending in a backslash (an escaped line break in quotes).
    /\\\r?$/,
  ],
  [
    // A node property (`&anchor`, `*alias`, `!tag`) or an explicit key (`? `) where a node can start.
    /(?:^|[\s[{,:])[&*!?]/,
    // A directive.
    /^%/,
    // From the fuzz: `---` or `...` run into other text, or content on the line of a `---`;
    /^(?:---|\.\.\.)[^\s]/, /^---[ ]+[^#\s]/,
    // a block scalar's explicit indentation or kept final line breaks;
    /(?:^|\s)[|>](?:[1-9]|[+-]?[1-9]?\+|-[1-9])/,
    // a sequence item with nothing on its line (js-yaml can take the next, less indented item into it).
    /^[ ]*-[ ]*(?:#[^\n]*)?\r?$/,
  ],
].map((patterns) => new RegExp(patterns.map((pattern) => pattern.source).join('|'), 'msu'));
/** A document whose first line of content is indented: js-yaml takes a less indented line after it as more of the same node, the `yaml` library refuses it. */
const INDENTED_ROOT = /^(?:[ ]*(?:#[^\n]*)?\r?\n)*[ ]+[^\s#]/;
/** A flow collection closed right before a `:` indicator may be a key (`[a]: b`), which `js-yaml` would turn into text. */
const COLLECTION_KEY = /[\]}]\s*:(?:\s|$|[,\]}])/m;

/** Whether the text may hold a layout only the full parse reads right. */
export function declinesText(text: string): boolean {
  // A byte-order mark at the start: js-yaml drops it, so each offset it reports would be one off.
  return text.charCodeAt(0) === BYTE_ORDER_MARK || DECLINED_TEXT.some((pattern) => pattern.test(text)) || COLLECTION_KEY.test(text) || INDENTED_ROOT.test(text) || hasMultiLineFlow(text) || hasCommentAboveDeeperLine(text);
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

const BYTE_ORDER_MARK = 0xfeff;
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
