/**
 * The full parse: YAML text → plain data plus a SourceMap, with the `yaml`
 * library, for the files the clean path's one pass declines (clean-yaml.ts):
 * its error messages and warnings are the ones reported. The conversion is our
 * own walk over the parsed nodes so that every value keeps its line:col,
 * aliases are bounded (no "billion laughs"), and keys such as `__proto__`
 * become plain own properties instead of touching a prototype.
 */
import type * as YamlLibrary from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { requireCommonJs } from '../commonjs.js';
import { indentationProblems } from './indentation.js';
import { SourceMap, type Spots } from './source-map.js';
import type { Diagnostic } from '../diagnostic.js';
import {
  DEFAULT_MAX_ALIAS_COUNT,
  DEFAULT_MAX_FILE_BYTES,
  type PolicyOptions,
  type PolicyText,
  type Position,
} from './types.js';

export interface ParsedPolicy {
  readonly file: string;
  /** Undefined when the text could not be turned into data at all. */
  readonly data?: unknown;
  readonly map: SourceMap;
  readonly diagnostics: Diagnostic[];
}

/** Bound on converted nodes, so aliases to large nodes cannot blow up memory. */
export const MAX_NODES = 500_000;

/**
 * Bound on nesting: a real policy goes about 6 levels deep (rules → rule →
 * point → element); hundreds of levels would exhaust the stack of the YAML
 * parser or of the checks after it.
 */
export const MAX_DEPTH = 64;
const TOO_DEEP = `nesting deeper than ${MAX_DEPTH} levels; a policy needs far fewer`;

class LimitError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly position: Position,
  ) {
    super(message);
  }
}

/**
 * The `yaml` library is loaded by the first file that needs the full parse:
 * clean files never do (their one pass makes their positions too, and a
 * diagnostic is reported at those: clean-yaml.ts), and loading it is 50 to
 * 130 ms of `validate`'s start.
 * (A CommonJS package: see src/commonjs.ts.)
 */
let yamlLibrary: typeof YamlLibrary | undefined;
const loadYaml = (): typeof YamlLibrary => (yamlLibrary ??= requireCommonJs('yaml') as typeof YamlLibrary);

/** The parser's errors a misplaced line gives, in its own terms (indentation.ts says them in plain words). */
const INDENTATION_ERRORS: ReadonlySet<string> = new Set(['BAD_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY', 'MISSING_CHAR', 'TAB_AS_INDENT', 'UNEXPECTED_TOKEN']);

export function parsePolicyText(input: PolicyText, options: PolicyOptions = {}): ParsedPolicy {
  const { file, text } = input;
  const diagnostics: Diagnostic[] = [];
  const error = (code: string, message: string, position: Position): void => {
    diagnostics.push({ file, line: position.line, col: position.col, severity: 'error', code, message });
  };

  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    error('file-too-large', `file is ${bytes} bytes; policy files may hold at most ${maxBytes} bytes`, { line: 0, col: 0 });
    return { file, map: new SourceMap(), diagnostics };
  }

  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } = loadYaml();
  const lineCounter = new LineCounter();
  const positionOf = locator(lineCounter);
  const empty = new SourceMap(positionOf);
  let list: Document.Parsed[];
  try {
    const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: false });
    list = Array.isArray(docs) ? docs : [];
  } catch (caught) {
    if (!isStackOverflow(caught)) throw caught;
    error('yaml-too-deep', TOO_DEEP, { line: 1, col: 1 });
    return { file, map: empty, diagnostics };
  }
  if (list.length === 0) {
    return { file, data: null, map: empty, diagnostics };
  }
  if (list.length > 1) {
    const second = list[1];
    error('multiple-documents', 'a policy file holds one YAML document; split the others into their own files', positionOf(second?.range[0] ?? 0));
  }
  const doc = list[0] as Document.Parsed;
  // The parser reports running out of stack as an ordinary error where it gave up: once, or (with
  // its code warmed up, as in a daemon after some cycles) once per level it unwound. One is enough.
  const overflows = doc.errors.filter((problem) => isStackOverflow(problem));
  const first = Math.min(...overflows.map((problem) => problem.pos[0]));
  if (overflows.length > 0) error('yaml-too-deep', TOO_DEEP, positionOf(first));
  // An indentation mistake is said at the line the user wrote, in plain words, in place of the parser's errors it caused.
  const indentation = doc.errors.some((problem) => INDENTATION_ERRORS.has(problem.code)) ? indentationProblems(text) : [];
  for (const problem of indentation) error('yaml-indentation', problem.message, problem);
  for (const problem of doc.errors) {
    if (isStackOverflow(problem) || (indentation.length > 0 && INDENTATION_ERRORS.has(problem.code))) continue;
    const [code, message] = problem.code === 'DUPLICATE_KEY'
      ? ['duplicate-key', 'duplicate key: each key may appear once per mapping']
      : ['yaml-syntax', firstLine(problem.message)];
    error(code, message, positionOf(problem.pos[0]));
  }
  for (const problem of doc.warnings) {
    diagnostics.push({ file, ...positionOf(problem.pos[0]), severity: 'warning', code: 'yaml-warning', message: firstLine(problem.message) });
  }
  if (doc.errors.length > 0) return { file, map: empty, diagnostics };

  const maxAliases = options.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT;
  let aliases = 0;
  let nodes = 0;
  let depth = 0;
  const resolving = new Set<Node>();
  /** The spots of the collection `convert` last returned; undefined after a scalar. */
  let built: Spots | undefined;

  /** Where the value `node` stands for is recorded: an alias at itself, a node at its start, else nowhere (-1). */
  const offsetOf = (node: unknown): number => {
    if (isAlias(node)) return node.range?.[0] ?? 0;
    if (node && typeof node === 'object' && 'range' in node) {
      const range = (node as { range?: [number, number, number] | null }).range;
      if (range) return range[0];
    }
    return -1;
  };

  const convert = (node: unknown): unknown => {
    if (++nodes > MAX_NODES) {
      throw new LimitError('yaml-too-large', `the document expands to more than ${MAX_NODES} values`, { line: 1, col: 1 });
    }
    if (isAlias(node)) {
      const position = positionOf(node.range?.[0] ?? 0);
      if (++aliases > maxAliases) {
        throw new LimitError('yaml-alias-limit', `more than ${maxAliases} alias references: refusing to expand (resource exhaustion guard)`, position);
      }
      const target = node.resolve(doc);
      if (!target) throw new LimitError('yaml-syntax', `unknown alias *${node.source}`, position);
      if (resolving.has(target)) throw new LimitError('yaml-alias-limit', `alias *${node.source} refers to itself`, position);
      resolving.add(target);
      try {
        const value = convertInner(target);
        // What lies inside an aliased collection is reported at the alias: at the anchor, each use's error
        // would point at the same lines, and none at where the value was used.
        if (built) built = pinnedTo(built, node.range?.[0] ?? 0);
        return value;
      } finally {
        resolving.delete(target);
      }
    }
    return convertInner(node);
  };

  const convertInner = (node: unknown): unknown => {
    if (isScalar(node)) {
      built = undefined;
      return node.value;
    }
    if ((isSeq(node) || isMap(node)) && depth >= MAX_DEPTH) {
      throw new LimitError('yaml-too-deep', TOO_DEEP, positionOf(Math.max(0, offsetOf(node))));
    }
    depth++;
    try {
      return convertCollection(node);
    } finally {
      depth--;
    }
  };

  const convertCollection = (node: unknown): unknown => {
    if (isSeq(node)) {
      const items = node.items;
      const out = new Array<unknown>(items.length);
      const valueAt = new Array<number>(items.length);
      let children: (Spots | undefined)[] | undefined;
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        valueAt[i] = offsetOf(item);
        out[i] = convert(item);
        if (built) (children ??= new Array<Spots | undefined>(items.length))[i] = built;
      }
      built = children ? { valueAt, children } : { valueAt };
      return out;
    }
    if (isMap(node)) {
      // `__proto__` is defined explicitly, so it stays an ordinary own key; every other
      // key is assigned (the same own, enumerable, writable property, made faster).
      const out: Record<string, unknown> = {};
      const pairs = node.items;
      const keys = new Array<string>(pairs.length);
      const keyAt = new Array<number>(pairs.length);
      const valueAt = new Array<number>(pairs.length);
      let children: (Spots | undefined)[] | undefined;
      for (let i = 0; i < pairs.length; i++) {
        const pair = pairs[i] as (typeof pairs)[number];
        const keyNode = pair.key;
        const keyOffset = (keyNode as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
        if (!isScalar(keyNode) || (typeof keyNode.value === 'object' && keyNode.value !== null)) {
          throw new LimitError('yaml-syntax', 'mapping keys must be plain scalars', positionOf(keyOffset));
        }
        const key = String(keyNode.value);
        keys[i] = key;
        keyAt[i] = keyOffset;
        let value: unknown = null;
        if (pair.value === null) {
          valueAt[i] = keyOffset;
        } else {
          valueAt[i] = offsetOf(pair.value);
          value = convert(pair.value);
          if (built) (children ??= new Array<Spots | undefined>(pairs.length))[i] = built;
        }
        if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
      }
      built = children ? { keys, keyAt, valueAt, children } : { keys, keyAt, valueAt };
      return out;
    }
    built = undefined;
    return null;
  };

  try {
    if (doc.contents === null) return { file, data: null, map: empty, diagnostics };
    const rootAt = offsetOf(doc.contents);
    const data = convert(doc.contents);
    return { file, data, map: new SourceMap(positionOf, rootAt, built), diagnostics };
  } catch (caught) {
    if (caught instanceof LimitError) {
      error(caught.code, caught.message, caught.position);
      return { file, map: empty, diagnostics };
    }
    throw caught;
  }
}

function isStackOverflow(error: unknown): boolean {
  return String((error as { message?: unknown } | null)?.message ?? '').includes('Maximum call stack size exceeded');
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
}

/**
 * Line and column of an offset, in a scope of its own: the map keeps this
 * function, and a closure made inside `parsePolicyText` would share its scope
 * with the others made there, keeping the whole parsed document alive (its
 * nodes, as large as the file's text many times over) for as long as the map.
 */
function locator(lineCounter: LineCounter): (offset: number) => Position {
  return (offset) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
}

/** The same spots with every position at `offset` (the alias a collection was read through). */
function pinnedTo(spots: Spots, offset: number): Spots {
  return {
    ...(spots.keys ? { keys: spots.keys, keyAt: spots.keys.map(() => offset) } : {}),
    valueAt: spots.valueAt.map(() => offset),
    ...(spots.children ? { children: spots.children.map((child) => (child ? pinnedTo(child, offset) : undefined)) } : {}),
  };
}
