/**
 * The source map of a file the clean path read (fast-yaml.ts), from a second
 * js-yaml parse that reports where each node opens and closes, rather than
 * the full parse (yaml.ts). Positions are read for the plan lines of the
 * objects a plan creates or changes: the first plan of a large account reads
 * them all. At 10k rules + 50k IP values the full parse took 2.65 s and 93 MB
 * more for them; this takes 0.33 to 0.48 s, and the daemon no longer loads
 * the `yaml` library at all for clean files.
 *
 * Each position is the one the full parse gives (a test compares the two on
 * every path of the clean-path corpus). js-yaml reports where it starts to
 * look for a node, before the separating space; the node starts at the first
 * character after that space and any comments. Where the two readers could
 * disagree the map is not made and the caller takes the full parse: a node
 * js-yaml reports no event for (an empty sequence item), a collection whose
 * reported nodes do not match its values one for one, a byte-order mark.
 *
 * Only for text the clean path accepted (`parseCleanYaml`): js-yaml would
 * throw on what it declines, and what its report means rests on what it
 * declines too (with node properties js-yaml backtracks, and the events of an
 * abandoned attempt would stay in the report). A test compares the positions
 * with the full parse's on the corpus and on generated layouts; a js-yaml
 * upgrade that reports otherwise fails it.
 */
import { load } from 'js-yaml';
import { CLEAN_SCHEMA } from './fast-yaml.js';
import { SourceMap, type Spots } from './source-map.js';
import type { Position } from './types.js';

/** A node as js-yaml reported it: where it opened, what it read, the nodes inside it. */
interface Reported {
  readonly opened: number;
  kind: string | null;
  result: unknown;
  readonly inside: Reported[];
}

/** Thrown inside the walk when the report and the data disagree: the map is not made. */
class Disagreement extends Error {}

export function cleanSourceMap(text: string): SourceMap | undefined {
  if (text.charCodeAt(0) === BYTE_ORDER_MARK) return undefined;
  const top: Reported = { opened: 0, kind: null, result: undefined, inside: [] };
  const open: Reported[] = [top];
  try {
    load(text, {
      schema: CLEAN_SCHEMA,
      listener: (event, state) => {
        if (event === 'open') {
          open.push({ opened: state.position, kind: null, result: undefined, inside: [] });
          return;
        }
        const node = open.pop() as Reported;
        node.kind = state.kind;
        node.result = state.result;
        (open[open.length - 1] as Reported).inside.push(unwrapped(node));
      },
    });
    const document = top.inside[0];
    if (top.inside.length !== 1 || !document) return undefined;
    // js-yaml has read a `---` marker before the document's node opens.
    const walk = new Walk(text);
    return new SourceMap(locator(text), walk.contentStart(document.opened), walk.spots(document));
  } catch (error) {
    if (error instanceof Disagreement) return undefined;
    throw error;
  }
}

/**
 * js-yaml reads a node that might be a mapping's first key as a node of its
 * own, and reports it inside the node it turns out to be: one node reported
 * twice, the outer holding only the inner, both with the same result.
 */
function unwrapped(node: Reported): Reported {
  const only = node.inside.length === 1 ? node.inside[0] : undefined;
  return only && only.kind === node.kind && Object.is(only.result, node.result) ? only : node;
}

class Walk {
  constructor(private readonly text: string) {}

  spots(node: Reported): Spots | undefined {
    if (node.kind === 'sequence') return this.sequence(node.result as unknown[], node.inside);
    if (node.kind === 'mapping') return this.mapping(node.result as Record<string, unknown>, node.inside);
    return undefined;
  }

  private sequence(items: readonly unknown[], inside: readonly Reported[]): Spots {
    if (inside.length !== items.length) throw new Disagreement();
    const valueAt = new Array<number>(items.length);
    let children: (Spots | undefined)[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = inside[i] as Reported;
      if (!Object.is(item.result, items[i])) throw new Disagreement();
      valueAt[i] = this.valueStart(item);
      const spots = this.spots(item);
      if (spots) (children ??= new Array<Spots | undefined>(items.length))[i] = spots;
    }
    return children ? { valueAt, children } : { valueAt };
  }

  private mapping(data: Record<string, unknown>, reported: readonly Reported[]): Spots {
    const count = Object.keys(data).length;
    // An empty node after the last pair is a key js-yaml looked for and did not find (before a `...`).
    const inside = reported.length === count * 2 + 1 && (reported[count * 2] as Reported).kind === null ? reported.slice(0, -1) : reported;
    // Key and value, one pair per member, in the text's order (integer-like keys come first in the data's).
    if (inside.length !== count * 2) throw new Disagreement();
    const keys = new Array<string>(count);
    const keyAt = new Array<number>(count);
    const valueAt = new Array<number>(count);
    const named = new Set<string>();
    let children: (Spots | undefined)[] | undefined;
    for (let i = 0; i < count; i++) {
      const key = inside[2 * i] as Reported;
      const value = inside[2 * i + 1] as Reported;
      const name = String(key.result);
      if (key.kind !== 'scalar' || named.has(name) || !Object.hasOwn(data, name)) throw new Disagreement();
      if (!Object.is(value.result ?? null, data[name])) throw new Disagreement();
      named.add(name);
      keys[i] = name;
      keyAt[i] = this.contentStart(key.opened);
      valueAt[i] = this.valueStart(value);
      const spots = this.spots(value);
      if (spots) (children ??= new Array<Spots | undefined>(count))[i] = spots;
    }
    return children ? { keys, keyAt, valueAt, children } : { keys, keyAt, valueAt };
  }

  /** An empty node starts past the spaces on its line, as the full parse's empty scalar does. */
  private valueStart(node: Reported): number {
    if (node.kind !== null) return this.contentStart(node.opened);
    let i = node.opened;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** The first character at or after `offset` that is not white space, a line break or part of a comment. */
  contentStart(offset: number): number {
    const text = this.text;
    let i = offset;
    for (;;) {
      const c = text.charCodeAt(i);
      if (isBlank(c)) {
        i++;
      } else if (c === HASH && (i === 0 || isBlank(text.charCodeAt(i - 1)))) {
        while (i < text.length && text.charCodeAt(i) !== NEWLINE) i++;
      } else {
        return i;
      }
    }
  }
}

/** 1-based line and column of an offset, lines ended by `\n`, as the full parse counts them. */
function locator(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, col: offset - (starts[low] as number) + 1 };
  };
}

const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === NEWLINE || c === RETURN;

const BYTE_ORDER_MARK = 0xfeff;
const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const HASH = 0x23;
