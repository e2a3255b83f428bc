/**
 * The point grammar (where in a request a rule or condition looks), the
 * emulator's own copy of the service's: elements that take an argument pair
 * with the next element, an integer index for some of them and a string key
 * for the others; every other element stands alone. A rule's `point` is sent
 * two-dimensional (`[["post"],["json_doc"],["hash","email"]]`) and listed flat
 * (`["post","json_doc","hash","email"]`).
 */
import { invalid } from '../envelope.js';

/** Elements whose argument is an integer index. */
const INDEX_ELEMENTS: ReadonlySet<string> = new Set([
  'path', 'array', 'grpc', 'json_array', 'xml_comment', 'xml_dtd_entity', 'xml_pi', 'xml_tag_array',
]);

/** Elements whose argument is a string key. */
const KEY_ELEMENTS: ReadonlySet<string> = new Set([
  'hash', 'json', 'json_obj', 'header', 'cookie', 'get', 'multipart', 'form_urlencoded', 'content_disp',
  'response_header', 'xml_tag', 'xml_attr', 'jwt', 'protobuf', 'viewstate_array', 'viewstate_pair',
  'viewstate_triplet', 'viewstate_dict', 'viewstate_sparse_array', 'gql_query', 'gql_mutation',
  'gql_subscription', 'gql_fragment', 'gql_dir', 'gql_spread', 'gql_type', 'gql_var',
]);

export type ElementArgument = 'none' | 'index' | 'key';

/** What follows an element. Unlisted names stand alone (`post`, `json_doc`, `uri`, `instance`, ...). */
export function elementArgument(name: string): ElementArgument {
  if (INDEX_ELEMENTS.has(name)) return 'index';
  if (KEY_ELEMENTS.has(name)) return 'key';
  return 'none';
}

const ELEMENT_NAME = /^[a-z][a-z0-9_]*$/;

export type Point = (string | number)[];

/**
 * A rule's `point` as stored: flat, indexes as integers (a numeric string is
 * taken). Accepts the two-dimensional form (each group one element and its
 * argument, if any) and the flat one. Throws the service's 400 on `field`.
 */
export function normalizeRulePoint(value: unknown, field = 'point'): Point {
  if (!Array.isArray(value) || value.length === 0) throw invalid(field, "can't be blank");
  if (value.every(Array.isArray)) {
    const out: Point = [];
    for (const group of value as unknown[][]) {
      const parsed = parseElements(group, field);
      if (parsed.length !== group.length || countElements(parsed) !== 1) {
        throw invalid(field, 'each group must be one element and its argument');
      }
      out.push(...parsed);
    }
    return out;
  }
  return parseElements(value as unknown[], field);
}

/**
 * A point inside a nested value, in the one shape the service's client sends
 * there: `two-level` (`arbitrary_conditions[].point`, `login_point`) or `flat`
 * (`enumerated_parameters.points[].point`). The other shape is refused as
 * `invalid` on `field`, the top-level field the service names. Stored flat.
 */
export function normalizeNestedPoint(value: unknown, shape: 'two-level' | 'flat', field: string, at = field): Point {
  if (!Array.isArray(value) || value.length === 0) throw invalid(at, "can't be blank");
  const twoLevel = value.every(Array.isArray);
  if (twoLevel !== (shape === 'two-level') || (!twoLevel && value.some(Array.isArray))) throw invalid(field, 'invalid');
  return normalizeRulePoint(value, at);
}

/** Parses a flat element list; throws on a malformed one. */
export function parseElements(parts: readonly unknown[], field: string): Point {
  if (parts.length === 0) throw invalid(field, "can't be blank");
  const out: Point = [];
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i];
    if (typeof name !== 'string' || !ELEMENT_NAME.test(name)) {
      throw invalid(field, `element ${i} must be a point element name, got ${JSON.stringify(name)}`);
    }
    out.push(name);
    const kind = elementArgument(name);
    if (kind === 'none') continue;
    if (i + 1 >= parts.length) throw invalid(field, `${name} takes ${kind === 'index' ? 'an integer index' : 'a key'}`);
    out.push(argument(name, kind, parts[++i], field));
  }
  return out;
}

function argument(name: string, kind: 'index' | 'key', raw: unknown, field: string): string | number {
  if (kind === 'index') {
    const index = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
      throw invalid(field, `${name} takes a non-negative integer index`);
    }
    return index;
  }
  if (typeof raw !== 'string' || raw === '') throw invalid(field, `${name} takes a non-empty string key`);
  return raw;
}

function countElements(point: Point): number {
  let count = 0;
  for (let i = 0; i < point.length; i++, count++) if (elementArgument(point[i] as string) !== 'none') i++;
  return count;
}
