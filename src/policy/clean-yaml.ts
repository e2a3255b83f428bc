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
import { type EventType, FAILSAFE_SCHEMA, load, type State, Type } from 'js-yaml';
import { ownCopy } from '../model/own-copy.js';
import { declinesText } from './clean-declines.js';
import { TapeSourceMap, type Locate, type SourceMap } from './source-map.js';
import { MAX_TAPE_OFFSET, SpotsTapeWriter, TapeReader } from './spots-tape.js';
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

/** The characters a plain scalar that is not a string starts with: `~`, null, true, false, a sign, a digit, a dot. */
const CORE_SCALAR_STARTS = new Uint8Array(128);
for (const c of '~nNtTfF0123456789+-.') CORE_SCALAR_STARTS[c.charCodeAt(0)] = 1;

/** The core scalar a plain scalar reads as; undefined for a string. */
function coreScalar(text: string): ((text: string) => unknown) | undefined {
  // Most plain scalars of a policy are strings, and their first character rules out all eight patterns (the empty one is null).
  if (text.length > 0 && CORE_SCALAR_STARTS[text.charCodeAt(0)] !== 1) return undefined;
  // None holds two dots, which every IPv4 address does: they start with a digit, and would try all eight.
  if (text.indexOf('.') !== text.lastIndexOf('.')) return undefined;
  return CORE_SCALARS.find(([test]) => test.test(text))?.[1];
}

/** One implicit type for all the core scalars: js-yaml tries each implicit type on every plain scalar. */
const CLEAN_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [new Type('tag:rampart,core', {
    kind: 'scalar',
    resolve: (text: string) => coreScalar(text) !== undefined,
    construct: (text: string) => (coreScalar(text) as (text: string) => unknown)(text),
  })],
});

export interface CleanYaml {
  readonly data: unknown;
  /** Its sources find their line and column when first read: a file without a diagnostic needs them only for the plan lines of what it changes. */
  readonly map: SourceMap;
}

/**
 * js-yaml's report of one file, kept flat: the nodes are numbered as they
 * open, so the nodes inside one follow it, up to `ends[node]`, and the next
 * node after that is its next sibling. An object and an array per node, as the
 * report was first kept, made about a fifth of this pass's own cost (measured
 * in process over the validate bench's 1,000 texts). The arrays are
 * kept from one file to the next (a policy file has a few hundred nodes); a
 * report grown past `KEPT_NODES` is dropped after its file, so a daemon does
 * not keep the largest file's report.
 */
class Report {
  /** How many nodes have opened. */
  count = 0;
  /** Where js-yaml started to look for each node. */
  opened = new Int32Array(KEPT_NODES);
  /** One past the last node inside each node. */
  ends = new Int32Array(KEPT_NODES);
  kinds = new Uint8Array(KEPT_NODES);
  /** What each node read; cleared after each file, as its strings keep js-yaml's copy of the text alive. */
  results: unknown[] = emptyResults();
  /** The nodes open now, innermost last. */
  private open = new Int32Array(KEPT_NODES);
  private depth = 0;

  readonly listen = (event: EventType, state: State): void => {
    if (event === 'open') {
      if (this.count === this.opened.length) this.grow();
      const node = this.count++;
      this.opened[node] = state.position;
      this.open[this.depth++] = node;
      return;
    }
    const node = this.open[--this.depth] as number;
    this.ends[node] = this.count;
    this.kinds[node] = kindOf(state.kind);
    this.results[node] = state.result;
  };

  /**
   * js-yaml reads a node that might be a mapping's first key as a node of its
   * own, and reports it inside the node it turns out to be: one node reported
   * twice, the outer holding only the inner, both with the same result. The
   * innermost stands for them all.
   */
  unwrapped(node: number): number {
    const { ends, kinds, results } = this;
    let outer = node;
    for (;;) {
      const inner = outer + 1;
      const onlyInside = inner < (ends[outer] as number) && ends[inner] === ends[outer];
      if (!onlyInside || kinds[inner] !== kinds[outer] || !Object.is(results[inner], results[outer])) return outer;
      outer = inner;
    }
  }

  /** Ready for the next file. */
  clear(): void {
    if (this.opened.length > KEPT_NODES) {
      this.opened = new Int32Array(KEPT_NODES);
      this.ends = new Int32Array(KEPT_NODES);
      this.kinds = new Uint8Array(KEPT_NODES);
      this.open = new Int32Array(KEPT_NODES);
      this.results = emptyResults();
    } else {
      this.results.fill(undefined, 0, this.count);
    }
    this.count = 0;
    this.depth = 0;
  }

  private grow(): void {
    const size = this.opened.length * 2;
    const grown = <T extends Int32Array | Uint8Array>(from: T, to: T): T => (to.set(from), to);
    this.opened = grown(this.opened, new Int32Array(size));
    this.ends = grown(this.ends, new Int32Array(size));
    this.kinds = grown(this.kinds, new Uint8Array(size));
    this.open = grown(this.open, new Int32Array(size));
  }
}

/** Nodes a report keeps room for between files. */
const KEPT_NODES = 4096;

/** Filled, so that js-yaml's nodes, which close innermost first, never write past the array's end into holes. */
const emptyResults = (): unknown[] => new Array<unknown>(KEPT_NODES).fill(undefined);

/** A node's kind in the report: js-yaml's kind of node, or none (an empty node). */
const NONE = 0;
const SCALAR = 1;
const SEQUENCE = 2;
const MAPPING = 3;

function kindOf(kind: string | null): number {
  return kind === 'scalar' ? SCALAR : kind === 'mapping' ? MAPPING : kind === 'sequence' ? SEQUENCE : NONE;
}

/** One report for every file: the pass is synchronous, so no two files are read at once. */
const report = new Report();

/** Thrown inside the walk where the full parse must read the file: the report and the data disagree, or a bound is passed. */
class Declined extends Error {}

/** The file's data and source map, or undefined when only the full parse may read it. */
export function readCleanYaml(text: string): CleanYaml | undefined {
  if (text.length > MAX_TAPE_OFFSET || declinesText(text)) return undefined;
  try {
    return readReported(text);
  } finally {
    report.clear();
  }
}

function readReported(text: string): CleanYaml | undefined {
  let data: unknown;
  try {
    data = load(text, { schema: CLEAN_SCHEMA, listener: report.listen });
  } catch {
    return undefined;
  }
  // No document (an empty file) is the full parse's to report; one node must hold the whole report.
  if (data === undefined || data === null || report.count === 0 || report.ends[0] !== report.count) return undefined;
  const document = report.unwrapped(0);
  if (!Object.is(report.results[document], data)) return undefined;
  try {
    // js-yaml has read a `---` marker before the document's node opens.
    const walk = new Walk(text, report);
    walk.document(document);
    return { data, map: new TapeSourceMap(lineLocator(text), contentStart(text, report.opened[document] as number), new TapeReader(walk.tape.done())) };
  } catch (error) {
    if (error instanceof Declined) return undefined;
    throw error;
  }
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

  constructor(private readonly text: string, private readonly report: Report) {}

  /** The document's node and what it holds. */
  document(node: number): void {
    if (++this.values > MAX_NODES) throw new Declined();
    if (isCollection(this.report.kinds[node] as number)) this.collection(node, 0);
  }

  /**
   * A collection at `depth` as the full parse counts it, and what it holds.
   * Sequences and mappings share one method, each step of it has one call
   * site, and the report's arrays are read into locals once per collection:
   * on a cold load much of this runs before the JIT compiles it, and what it
   * compiles is inlined at every call site.
   */
  private collection(node: number, depth: number): void {
    if (depth >= MAX_DEPTH) throw new Declined();
    const { report, tape, text } = this;
    const { kinds, ends, results, opened } = report;
    const mapping = kinds[node] === MAPPING;
    const items = results[node] as unknown[];
    const data = results[node] as Record<string, unknown>;
    const names = mapping ? Object.keys(data) : undefined;
    const count = names ? names.length : items.length;
    const end = ends[node] as number;
    tape.collection(count, mapping);
    /** A mapping's keys read so far, made only once the text's order and the data's differ: until then the data's keys are distinct. */
    let named: Set<string> | undefined;
    // The reported nodes inside, one after another: an item each, or a mapping's key then its value, in
    // the text's order (integer-like keys come first in the data's).
    let i = 0;
    let read = '';
    let keyAt = -1;
    for (let next = node + 1; next < end;) {
      const child = report.unwrapped(next);
      next = ends[next] as number;
      const kind = kinds[child];
      // An empty node starts past the spaces on its line, as the full parse's empty scalar does.
      const at = kind === NONE ? pastSpaces(text, opened[child] as number) : contentStart(text, opened[child] as number);
      if (mapping && keyAt < 0) {
        if (i === count) {
          // An empty node after the last pair is a key js-yaml looked for and did not find (before a `...`).
          if (kind !== NONE || next !== end) throw new Declined();
          break;
        }
        if (kind !== SCALAR) throw new Declined();
        read = String(results[child]);
        if (named === undefined && names?.[i] === read) {
          // The data's own string for the name, which finds the member without hashing the text read.
          read = names[i] as string;
        } else {
          named ??= new Set(names?.slice(0, i));
          if (named.has(read) || !Object.hasOwn(data, read)) throw new Declined();
          named.add(read);
        }
        keyAt = at;
        continue;
      }
      if (i === count) throw new Declined();
      const reported = results[child];
      const member = mapping ? data[read] : items[i];
      // An empty value is null in the data.
      if (!Object.is(mapping ? (reported ?? null) : reported, member)) throw new Declined();
      if (typeof member === 'string') {
        if (mapping) data[read] = ownCopy(member);
        else items[i] = ownCopy(member);
      }
      const collection = isCollection(kind as number);
      if (mapping) {
        // Keys are kept once for the process (spots-tape.ts); a table full of them declines the text.
        if (!tape.member(read, keyAt, at, collection)) throw new Declined();
        keyAt = -1;
      } else {
        tape.item(at, collection);
      }
      i++;
      if (++this.values > MAX_NODES) throw new Declined();
      if (collection) this.collection(child, depth + 1);
    }
    // One reported node per item, two per member.
    if (i !== count || keyAt >= 0) throw new Declined();
  }
}

function isCollection(kind: number): boolean {
  return kind === SEQUENCE || kind === MAPPING;
}

/** The first character at or after `offset` that is not white space, a line break or part of a comment. */
function contentStart(text: string, offset: number): number {
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

/** The first character at or after `offset` that is not a space: where an empty node starts. */
function pastSpaces(text: string, offset: number): number {
  let i = offset;
  while (text.charCodeAt(i) === SPACE) i++;
  return i;
}

/**
 * 1-based line and column of an offset, lines ended by `\n`, as the full parse
 * counts them. The line starts are found now, so the map keeps them rather
 * than the text.
 */
function lineLocator(text: string): Locate {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (lines === lineStarts.length) lineStarts = grown(lineStarts);
    lineStarts[lines++] = i + 1;
  }
  const starts = lineStarts.slice(0, lines);
  if (lineStarts.length > KEPT_LINES) lineStarts = new Uint32Array(KEPT_LINES);
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

/**
 * Line starts as they are found, kept from one file to the next (the first
 * line starts at 0): one pass over the text, and each file's own copy made
 * at its length. Past `KEPT_LINES` the array is dropped after its file.
 */
const KEPT_LINES = 4096;
let lineStarts: Uint32Array = new Uint32Array(KEPT_LINES);

function grown(from: Uint32Array): Uint32Array {
  const to = new Uint32Array(from.length * 2);
  to.set(from);
  return to;
}

const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === NEWLINE || c === RETURN;

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const HASH = 0x23;
