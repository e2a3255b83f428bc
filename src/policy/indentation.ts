/**
 * Indentation mistakes in people's words. The YAML parser reports a line
 * indented too deep at the line before it, in its own terms ("Implicit keys
 * need to be on a single line"), and one indented too little as "Sequence
 * item without - indicator". When it fails, this reads the file's block
 * structure line by line, as a person sees it (keys and `-` items, each at a
 * column), and says which line does not fit and where it belongs. It
 * explains only: a file the parser accepts is never read here.
 *
 * After a misplaced line it goes on as if the line were where it belongs, so
 * every such line of a file is reported at once. Block scalars (`|`, `>`),
 * flow collections and quoted strings spanning lines are skipped as text; a
 * layout it cannot follow (`?` keys, document markers) gives no explanation,
 * and the parser's own message stands.
 */
import type { Position } from './types.js';

export interface IndentationProblem extends Position {
  readonly message: string;
}

/** A block open at a column: a mapping's keys, or a sequence's `-`. */
interface Block {
  readonly col: number;
  readonly kind: 'key' | 'item';
  /** The last key or item read in it, as shown in messages (`type:`, `-`), and its line. */
  last: string;
  lastLine: number;
}

/** What one line holds, after its indentation. */
interface Line {
  readonly number: number;
  readonly col: number;
  readonly kind: 'key' | 'item';
  /** `attack:` or `- name:` or `-`: how the message names it. */
  readonly label: string;
}

/** A key at the start of what a line holds: quoted, or plain (not starting with an indicator), then `:` and a space or the line's end. */
const KEY = /^((?:"[^"]*"|'[^']*'|[^\s#\-?:,[\]{}&*!|>'"%@`][^#]*?|-[^\s#][^#]*?))[ \t]*:(?:[ \t]|$)/;

/** The problems of the file's indentation, in line order; empty when none is found or the layout is one it does not read. */
export function indentationProblems(text: string): IndentationProblem[] {
  const lines = text.split('\n');
  const problems: IndentationProblem[] = [];
  const stack: Block[] = [];
  /** The last line opened a block below it (a key or `-` with nothing after it). */
  let opened = false;
  let skip: ((raw: string, indent: number) => boolean) | undefined;
  /** After a misplaced line, the lines inside it are read as moved with it: from its column on, by `delta`. */
  let moved: { from: number; delta: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] as string).replace(/\r$/, '');
    const content = raw.trimStart();
    const written = raw.length - content.length;
    if (content !== '' && !content.startsWith('#') && moved && written <= moved.from) moved = undefined;
    const indent = written + (moved && written > moved.from ? moved.delta : 0);
    if (skip?.(raw, indent)) continue;
    skip = undefined;
    if (content === '' || content.startsWith('#')) continue;
    if (raw.slice(0, written).includes('\t')) {
      problems.push({ line: index + 1, col: 1, message: 'a tab indents this line, and YAML indents with spaces only: replace the tab with spaces' });
      return problems;
    }
    if (/^(?:---|\.\.\.)(?:\s|$)/.test(raw) || /^\?(?:\s|$)/.test(content)) return [];
    let col = indent;
    let rest = content;
    // One line may open several blocks: `- name: a` is an item, and the first key of a mapping inside it.
    for (let first = true; ; first = false) {
      const item = /^-(?:[ \t]+|$)/.exec(rest);
      const key = item ? null : KEY.exec(rest);
      if (!item && !key) {
        // A value: after `- `, or on a line of its own (a plain scalar going on, or a flow value).
        if (!first || opened) {
          opened = false;
          skip = skipperFor(rest, col);
        }
        break;
      }
      const label = item ? '-' : `${(key as RegExpExecArray)[1]}:`;
      const line: Line = { number: index + 1, col, kind: item ? 'item' : 'key', label: item ? itemLabel(rest.slice(item[0].length)) : label };
      if (first) {
        // Inside a moved line, a line that fits where it is written stays there; one that fits only moved, moves.
        const asWritten = moved && written > moved.from ? tryPlace(stack, { ...line, col: written }, opened) : undefined;
        if (asWritten?.fits) {
          col = written;
          stack.splice(0, stack.length, ...asWritten.stack);
        } else {
          const misplaced = place(stack, line, opened);
          if (misplaced) {
            problems.push({ line: line.number, col: written + 1, message: misplaced.message });
            moved = { from: written, delta: misplaced.col - written };
            col = misplaced.col;
            place(stack, { ...line, col }, opened);
          }
        }
      } else {
        stack.push({ col, kind: line.kind, last: label, lastLine: line.number });
      }
      const top = stack[stack.length - 1] as Block;
      top.last = label;
      top.lastLine = line.number;
      const taken = (item ?? (key as RegExpExecArray))[0].length;
      const value = rest.slice(taken).trim();
      if (value === '' || value.startsWith('#')) {
        opened = true;
        break;
      }
      col += taken;
      rest = rest.slice(taken);
      if (!item) {
        // A key's value is a value, never a key: `a: b: c` is not YAML, and the parser says so.
        opened = false;
        skip = skipperFor(value, top.col);
        break;
      }
    }
  }
  return problems;
}

/** `place` on a copy of the stack: whether the line fits there, and the stack it leaves. */
function tryPlace(stack: readonly Block[], line: Line, opened: boolean): { fits: boolean; stack: Block[] } {
  const copy = stack.map((block) => ({ ...block }));
  return { fits: place(copy, line, opened) === undefined, stack: copy };
}

/**
 * Puts a line's first key or item on the stack; returns where it should be,
 * and why, when its column fits no open block.
 */
function place(stack: Block[], line: Line, opened: boolean): { col: number; message: string } | undefined {
  const top = stack[stack.length - 1];
  if (!top || (opened && line.col > top.col) || (opened && line.kind === 'item' && top.kind === 'key' && line.col === top.col)) {
    stack.push({ col: line.col, kind: line.kind, last: line.label, lastLine: line.number });
    return undefined;
  }
  const is = `\`${line.label}\` is indented ${spaces(line.col)}`;
  if (line.col > top.col) {
    return { col: top.col, message: `${is}, deeper than ${describe(top)}, which already has its value: ${indentAs(top)}` };
  }
  let inner: Block | undefined;
  while ((stack[stack.length - 1] as Block).col > line.col) {
    inner = stack.pop() as Block;
    if (stack.length === 0) {
      stack.push(inner);
      return { col: inner.col, message: `${is}, less than ${describe(inner)}: ${indentAs(inner)}` };
    }
  }
  const at = stack[stack.length - 1] as Block;
  if (at.col === line.col && at.kind === line.kind) return undefined;
  // `key:` then `- item` at the key's own column: the items close, and the next key is the mapping's.
  const below = stack[stack.length - 2];
  if (at.col === line.col && at.kind === 'item' && line.kind === 'key' && below?.kind === 'key' && below.col === line.col) {
    stack.pop();
    return undefined;
  }
  if (at.col < line.col) {
    const to = inner?.kind === line.kind || at.kind !== line.kind ? (inner ?? at) : at;
    return { col: to.col, message: `${is}, between ${describe(inner ?? at)} and ${describe(at)}: ${indentAs(to)}` };
  }
  // At the column of a block of the other kind.
  if (line.kind === 'key') {
    const fix = inner?.kind === 'key' ? `${indentAs(inner)}, to keep it in the item above` : 'start it with `- ` to make it an item of its own';
    return { col: inner?.kind === 'key' ? inner.col : line.col, message: `${is}, as ${describe(at)}, so it belongs to no item: ${fix}` };
  }
  const list = [...stack].reverse().find((block) => block.kind === 'item' && block.col < line.col);
  const fix = list ? `: ${indentAs(list)}, to make it the next item` : ': give it a key of its own above it';
  return { col: list?.col ?? line.col, message: `${is}, level with the key ${describe(at)}, which already has its value${fix}` };
}

/** `type:` (line 6, 4 spaces), or the list's `-` (line 5, 2 spaces). */
function describe(block: Block): string {
  const what = block.kind === 'key' ? `\`${block.last}\`` : 'the list\'s `-`';
  return `${what} (line ${block.lastLine}, ${spaces(block.col)})`;
}

function indentAs(block: Block): string {
  const as = block.kind === 'key' ? `\`${block.last}\`` : 'the list\'s `-`';
  return block.col === 0 ? `start it at the beginning of the line, as ${as}` : `indent it ${spaces(block.col)}, as ${as}`;
}

/** An item as the message names it: `- name:` when a key follows the dash. */
function itemLabel(rest: string): string {
  const key = KEY.exec(rest);
  return key ? `- ${key[1]}:` : '-';
}

function spaces(n: number): string {
  return n === 1 ? '1 space' : `${n} spaces`;
}

/**
 * A value that goes on past its line: a block scalar's text (every line
 * deeper than its key), a flow collection until its brackets close, or a
 * quoted string until its quote closes. A plain value's next lines hold no
 * key, and need no skipping. Returns a test for the lines to skip.
 */
function skipperFor(value: string, col: number): ((raw: string, indent: number) => boolean) | undefined {
  if (/^[|>][-+0-9]*(?:\s+#.*)?$/.test(value)) return (raw, indent) => raw.trim() === '' || indent > col;
  if (!/^["'[{]/.test(value)) return undefined;
  let depth = 0;
  let quote: string | undefined;
  /** Where a quote opens a quoted scalar: at the value's start, or at an entry's start inside brackets. */
  let entryStart = true;
  const scan = (text: string): void => {
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (quote) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote && !(quote === "'" && text[i + 1] === "'")) quote = undefined;
        else if (c === "'" && quote === "'") i++;
        continue;
      }
      if ((c === '"' || c === "'") && entryStart) quote = c;
      else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] as string))) return;
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      if (!/\s/.test(c)) entryStart = c === '[' || c === '{' || c === ',' || c === ':';
    }
  };
  scan(value);
  if (depth <= 0 && !quote) return undefined;
  return (raw) => {
    if (depth <= 0 && !quote) return false;
    scan(`${raw}\n`);
    return true;
  };
}
