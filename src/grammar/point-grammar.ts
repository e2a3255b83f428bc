/**
 * Point grammar: which element names exist, which take an argument and of
 * what kind. Arguments pair with their element exactly as the live reader
 * regroups the server's flat points (points.ts), so a point written
 * here reads back the same. Policy validation and nested rule fields both read points here.
 */
import { canonicalPoint, INDEXED_ELEMENTS, POINT_ELEMENTS_WITH_ARGUMENT, type Point } from './points.js';
import { didYouMean } from './suggest.js';

/** A point element as written in a policy file: `[header, HOST]`, `[path, 0]`, `[post]`. */
export type PointSpec = readonly (string | number)[];

/** A path below a point element (`[1]`: its argument). */
type Below = readonly (string | number)[];

/** Elements taking a zero-based integer index. */
const INDEXED = INDEXED_ELEMENTS;

/** Rule-point elements that stand alone (no argument): parsers and whole parts of the request. */
const BARE_RULE_ELEMENTS = new Set([
  'post', 'get_all', 'uri', 'route', 'json_doc', 'xml', 'base64', 'gzip', 'percent', 'htmljs',
  'action_name', 'action_ext', 'method', 'scheme', 'proto', 'array_all', 'hash_all', 'hash_name',
  'header_all', 'cookie_all', 'xml_dtd', 'viewstate', 'gql',
]);

/** Condition points (api-notes.md): name → what its argument is, or null for none. */
const CONDITION_POINTS: ReadonlyMap<string, 'index' | 'name' | 'key' | null> = new Map([
  ['instance', null], ['path', 'index'], ['header', 'name'], ['get', 'key'], ['method', null],
  ['scheme', null], ['proto', null], ['uri', null], ['action_name', null], ['action_ext', null],
]);

/** RFC 9110 token characters. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

export type PointKind = 'rule' | 'condition';

/** A point element problem, at a path below the element (`[1]`: its argument). */
export interface PointProblem {
  readonly code: string;
  readonly message: string;
  readonly at: Below;
}

/** One point element → its canonical form, or what is wrong with it (as a value, for nested fields). */
export function readPoint(spec: PointSpec, kind: PointKind): { readonly point: Point } | PointProblem {
  const problem = (code: string, message: string, at: Below = []): PointProblem => ({ code, message, at });
  const [rawName, argument] = spec;
  if (typeof rawName !== 'string' || rawName === '') {
    return problem('unknown-point', 'a point starts with its element name, e.g. [header, HOST]');
  }
  const name = rawName.toLowerCase();
  const known = kind === 'condition' ? [...CONDITION_POINTS.keys()] : [...POINT_ELEMENTS_WITH_ARGUMENT, ...BARE_RULE_ELEMENTS];
  const takesArgument =
    kind === 'condition' ? CONDITION_POINTS.get(name) !== null && CONDITION_POINTS.has(name) : POINT_ELEMENTS_WITH_ARGUMENT.has(name);
  if (!known.includes(name)) {
    const what = kind === 'condition' ? 'condition point' : 'point element';
    return problem('unknown-point', `unknown ${what} "${rawName}"${didYouMean(name, known)}`, [0]);
  }
  if (!takesArgument) {
    if (argument !== undefined) return problem('point-argument', `point "${name}" takes no argument; write [${name}]`, [1]);
    return { point: canonicalPoint([name]) };
  }
  if (argument === undefined) return problem('point-argument', `point "${name}" needs an argument: ${argumentHint(name)}`);
  if (INDEXED.has(name)) {
    if (typeof argument !== 'number' || !Number.isSafeInteger(argument) || argument < 0) {
      return problem('point-argument', `the index of [${name}, N] must be a non-negative integer, got ${JSON.stringify(argument)}`, [1]);
    }
    return { point: canonicalPoint([name, argument]) };
  }
  const text = String(argument);
  if (text === '') return problem('point-argument', `point "${name}" needs a non-empty argument: ${argumentHint(name)}`, [1]);
  if (name === 'header' && !HEADER_NAME.test(text)) return problem('point-argument', `"${text}" is not a valid header name`, [1]);
  return { point: canonicalPoint([name, text]) };
}

function argumentHint(name: string): string {
  if (INDEXED.has(name)) return `[${name}, 0]`;
  if (name === 'header') return '[header, HOST]';
  if (name === 'get') return '[get, KEY]';
  return `[${name}, NAME]`;
}
