/**
 * The canonical form of points, applied to both sides so that the server's
 * own normalization never shows up as a change: element names lower-cased,
 * header names upper-cased, path indexes as integers; and the listings' flat
 * points regrouped. Below the rule catalogue and the model, which both read
 * points (point-grammar.ts says which are valid).
 */

/**
 * One request point: `['header', 'HOST']`, `['path', 0]`, `['instance']`, `['get', 'q']`.
 * Header names are upper-cased; path indexes are integers.
 */
export type Point = readonly (string | number)[];

/** Point elements that take the next element as their argument (the service's full point grammar). */
export const POINT_ELEMENTS_WITH_ARGUMENT: ReadonlySet<string> = new Set([
  'hash', 'array', 'json', 'json_obj', 'json_array', 'header', 'cookie', 'get', 'path', 'multipart',
  'form_urlencoded', 'content_disp', 'response_header', 'xml_pi', 'xml_dtd_entity', 'xml_tag_array', 'xml_tag',
  'xml_attr', 'xml_comment', 'jwt', 'grpc', 'protobuf', 'viewstate_array', 'viewstate_pair', 'viewstate_triplet',
  'viewstate_dict', 'viewstate_sparse_array', 'gql_query', 'gql_mutation', 'gql_subscription', 'gql_fragment',
  'gql_dir', 'gql_spread', 'gql_type', 'gql_var',
]);

/** Elements whose argument is an integer index. */
export const INDEXED_ELEMENTS: ReadonlySet<string> = new Set([
  'path', 'array', 'grpc', 'json_array', 'xml_comment', 'xml_dtd_entity', 'xml_pi', 'xml_tag_array',
]);

export function canonicalPoint(point: readonly (string | number)[]): Point {
  const [name, argument, ...rest] = point;
  if (typeof name !== 'string') return point;
  const element = name.toLowerCase();
  if (argument === undefined) return [element];
  if (element === 'header') return [element, String(argument).toUpperCase(), ...rest];
  if (INDEXED_ELEMENTS.has(element) && /^\d+$/.test(String(argument))) return [element, Number(argument), ...rest];
  return [element, argument, ...rest];
}

/**
 * Listings return a rule's points flattened (`["header","HOST","get","q"]`);
 * regroup them: elements that take an argument pair with the next one.
 * Already nested input is accepted as it is.
 */
export function regroupPoints(flat: readonly unknown[]): Point[] {
  if (flat.every((element) => Array.isArray(element))) {
    return (flat as (string | number)[][]).map(canonicalPoint);
  }
  const points: Point[] = [];
  for (let index = 0; index < flat.length; index++) {
    const element = flat[index];
    if (Array.isArray(element)) {
      points.push(canonicalPoint(element as (string | number)[]));
      continue;
    }
    const name = String(element);
    if (POINT_ELEMENTS_WITH_ARGUMENT.has(name.toLowerCase()) && index + 1 < flat.length) {
      points.push(canonicalPoint([name, flat[index + 1] as string | number]));
      index++;
    } else {
      points.push(canonicalPoint([name]));
    }
  }
  return points;
}
