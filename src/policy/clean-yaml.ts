/**
 * The clean path of loading: one js-yaml pass builds a file's data and its
 * source map. Most policy files are plain YAML without a single diagnostic,
 * and for those the `yaml` library's full document (every node with its
 * source range) costs about 15 times what the data does. js-yaml reads with
 * the `yaml` library's own scalar rules (its YAML 1.2 core schema, copied
 * below), so both read a file as the same values; its `listener` reports
 * where each node opens and closes, and the map is made from that report
 * against the data, in the same pass.
 *
 * Each position is the one the full parse (yaml.ts) gives, so diagnostics
 * found on this path are reported where they always were. js-yaml reports
 * where it starts to look for a node, before the separating space; the node
 * starts at the first character after that space and any comments. Whatever
 * this pass is not sure to read exactly as `parsePolicyText` is declined, and
 * the caller takes the full parse for the whole file: the layouts
 * clean-declines.ts finds in the text, anything js-yaml rejects, an empty
 * document, nesting or size past the full parse's bounds, and a report that
 * does not match the data one node for one (a node js-yaml reports no event
 * for, such as an empty sequence item). Tests compare the data and every
 * position with the full parse's on every YAML file of the repository and on
 * generated texts; a js-yaml upgrade that reads or reports otherwise fails
 * them.
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';
import { ownCopy } from '../model/own-copy.js';
import { declinesText } from './clean-declines.js';
import { DeferredSourceMap, type Locate, type SourceMap } from './source-map.js';
import { MAX_TAPE_OFFSET, readSpotsTape, type SpotsTape, SpotsTapeWriter } from './spots-tape.js';
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

const CLEAN_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: CORE_SCALARS.map(([test, construct], i) => new Type(`tag:rampart,core-${i}`, {
    kind: 'scalar',
    resolve: (text: string) => test.test(text),
    construct,
  })),
});

export interface CleanYaml {
  readonly data: unknown;
  /** Its sources find their line and column when first read: a file without a diagnostic needs them only for the plan lines of what it changes. */
  readonly map: SourceMap;
}

/** A node as js-yaml reported it: where it opened, what it read, the nodes inside it. */
interface Reported {
  readonly opened: number;
  kind: string | null;
  result: unknown;
  readonly inside: Reported[];
}

/** Thrown inside the walk where the full parse must read the file: the report and the data disagree, or a bound is passed. */
class Declined extends Error {}

/** The file's data and source map, or undefined when only the full parse may read it. */
export function readCleanYaml(text: string): CleanYaml | undefined {
  if (text.length > MAX_TAPE_OFFSET || declinesText(text)) return undefined;
  const top: Reported = { opened: 0, kind: null, result: undefined, inside: [] };
  const open: Reported[] = [top];
  let data: unknown;
  try {
    data = load(text, {
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
  } catch {
    return undefined;
  }
  const document = top.inside[0];
  // No document (an empty file) is the full parse's to report.
  if (data === undefined || data === null || top.inside.length !== 1 || !document || !Object.is(document.result, data)) return undefined;
  try {
    // js-yaml has read a `---` marker before the document's node opens.
    const walk = new Walk(text);
    walk.node(document, 0);
    return { data, map: deferredMap(lineLocator(text), walk.contentStart(document.opened), walk.tape.done()) };
  } catch (error) {
    if (error instanceof Declined) return undefined;
    throw error;
  }
}

/**
 * The map, made in a scope of its own: a closure made inside `readCleanYaml`
 * would share its scope with the listener's, and keep the whole report alive
 * (and through its strings js-yaml's copy of the text) for as long as the map.
 */
function deferredMap(locate: Locate, rootAt: number, tape: SpotsTape): SourceMap {
  return new DeferredSourceMap(locate, rootAt, () => readSpotsTape(tape));
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

/**
 * The report and the data walked together: each collection's spots made, the
 * full parse's bounds checked, and each string value replaced by a copy of its
 * own (own-copy.ts). js-yaml cuts values out of a copy of the text it is
 * given (with a terminator appended), and a policy kept after its load (the
 * daemon's, between cycles) kept that second copy of every file alive through
 * its long values (2 MB at 10k rules + 50k IP values).
 */
class Walk {
  readonly tape = new SpotsTapeWriter();
  private values = 0;

  constructor(private readonly text: string) {}

  /** A node and what it holds, at `depth` as the full parse counts it. */
  node(node: Reported, depth: number): void {
    if (++this.values > MAX_NODES) throw new Declined();
    if (!isCollection(node)) return;
    if (depth >= MAX_DEPTH) throw new Declined();
    if (node.kind === 'sequence') this.sequence(node.result as unknown[], node.inside, depth + 1);
    else this.mapping(node.result as Record<string, unknown>, node.inside, depth + 1);
  }

  private sequence(items: unknown[], inside: readonly Reported[], depth: number): void {
    if (inside.length !== items.length) throw new Declined();
    this.tape.collection(items.length, false);
    for (let i = 0; i < items.length; i++) {
      const item = inside[i] as Reported;
      const value = items[i];
      if (!Object.is(item.result, value)) throw new Declined();
      if (typeof value === 'string') items[i] = ownCopy(value);
      this.tape.item(this.valueStart(item), isCollection(item));
      this.node(item, depth);
    }
  }

  private mapping(data: Record<string, unknown>, reported: readonly Reported[], depth: number): void {
    const names = Object.keys(data);
    const count = names.length;
    // An empty node after the last pair is a key js-yaml looked for and did not find (before a `...`).
    const inside = reported.length === count * 2 + 1 && (reported[count * 2] as Reported).kind === null ? reported.slice(0, -1) : reported;
    // Key and value, one pair per member, in the text's order (integer-like keys come first in the data's).
    if (inside.length !== count * 2) throw new Declined();
    this.tape.collection(count, true);
    const named = new Set<string>();
    for (let i = 0; i < count; i++) {
      const key = inside[2 * i] as Reported;
      const value = inside[2 * i + 1] as Reported;
      const read = String(key.result);
      if (key.kind !== 'scalar' || named.has(read) || !Object.hasOwn(data, read)) throw new Declined();
      named.add(read);
      const member = data[read];
      if (!Object.is(value.result ?? null, member)) throw new Declined();
      if (typeof member === 'string') data[read] = ownCopy(member);
      // The data's own key where the orders agree: property names are kept once however many mappings use them.
      const own = names[i];
      this.tape.member(own === read ? own : ownCopy(read), this.contentStart(key.opened), this.valueStart(value), isCollection(value));
      this.node(value, depth);
    }
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

/**
 * 1-based line and column of an offset, lines ended by `\n`, as the full parse
 * counts them. The line starts are found now, so the map keeps them rather
 * than the text.
 */
function lineLocator(text: string): Locate {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  const starts = new Uint32Array(lines);
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[line++] = i + 1;
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

const isCollection = (node: Reported): boolean => node.kind === 'sequence' || node.kind === 'mapping';
const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === NEWLINE || c === RETURN;

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const HASH = 0x23;
