import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/emulator/envelope.js';
import { elementArgument, normalizeRulePoint } from '../../../src/emulator/rules/points.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return JSON.stringify((error as HttpError).body);
  }
  throw new Error('expected a 400');
}

describe('the point grammar', () => {
  it('knows which elements take an index, a key or nothing', () => {
    for (const name of ['path', 'array', 'grpc', 'json_array', 'xml_comment', 'xml_dtd_entity', 'xml_pi', 'xml_tag_array']) {
      expect(elementArgument(name)).toBe('index');
    }
    for (const name of ['hash', 'json', 'json_obj', 'header', 'cookie', 'get', 'multipart', 'form_urlencoded', 'content_disp',
      'response_header', 'xml_tag', 'xml_attr', 'jwt', 'protobuf', 'viewstate_array', 'viewstate_pair', 'viewstate_triplet',
      'viewstate_dict', 'viewstate_sparse_array', 'gql_query', 'gql_mutation', 'gql_subscription', 'gql_fragment',
      'gql_dir', 'gql_spread', 'gql_type', 'gql_var']) {
      expect(elementArgument(name)).toBe('key');
    }
    for (const name of ['post', 'get_all', 'json_doc', 'xml', 'base64', 'gzip', 'percent', 'uri', 'route', 'instance']) {
      expect(elementArgument(name)).toBe('none');
    }
  });

  it('flattens the two-dimensional form and keeps a flat one', () => {
    expect(normalizeRulePoint([['header', 'HOST']])).toEqual(['header', 'HOST']);
    expect(normalizeRulePoint([['post'], ['json_doc'], ['hash', 'email']])).toEqual(['post', 'json_doc', 'hash', 'email']);
    expect(normalizeRulePoint(['post', 'json_doc', 'hash', 'email'])).toEqual(['post', 'json_doc', 'hash', 'email']);
    expect(normalizeRulePoint([['post'], ['xml'], ['xml_tag', 'user'], ['xml_tag_array', 2]])).toEqual(['post', 'xml', 'xml_tag', 'user', 'xml_tag_array', 2]);
  });

  it('stores integer indexes as integers, a numeric string too', () => {
    expect(normalizeRulePoint([['path', '3']])).toEqual(['path', 3]);
    expect(normalizeRulePoint([['post'], ['json_doc'], ['json_array', 0]])).toEqual(['post', 'json_doc', 'json_array', 0]);
  });

  it.each([
    ['empty', [], /blank/],
    ['not an array', 'header', /blank/],
    ['a non-element', [[{}]], /point element name/],
    ['a key element without its key (flat)', ['post', 'hash'], /hash takes a key/],
    ['a key element without its key (grouped)', [['header']], /header takes a key/],
    ['a bare element given an argument', [['post', 'x']], /point element name|each group/],
    ['two elements in a group', [['post', 'json_doc']], /each group/],
    ['a non-integer index', [['path', 'admin']], /integer index/],
    ['a negative index', [['array', -1]], /integer index/],
    ['a numeric key', [['get', 5]], /string key/],
    ['an empty key', [['cookie', '']], /string key/],
    ['an upper-case element', [['POST']], /point element name/],
  ])('refuses %s', (_name, input, message) => {
    expect(refusal(() => normalizeRulePoint(input))).toMatch(message);
  });
});
