/**
 * The request model `tune` and `--impact` share: the scope `tune` writes for a
 * hit selects that hit's request and not its neighbours, a `url:` scope
 * selects what its pattern says, and what hits do not record is named.
 */
import { describe, expect, it } from 'vitest';
import { recordedRequest } from '../../../src/hits/read.js';
import { canonicalCondition } from '../../../src/model/canonical.js';
import type { Condition } from '../../../src/model/rule.js';
import { scopeMatches, unrecordedCondition } from '../../../src/model/scope-match.js';
import { urlScope } from '../../../src/policy/url-scope.js';
import { hitScope } from '../../../src/tune/scope.js';

const at = (path: string, domain = 'shop.example.com', application = 7) => recordedRequest({ domain, path, application });

function url(pattern: string): Condition[] {
  const scope = urlScope(pattern);
  if (!scope.ok) throw new Error(scope.message);
  return scope.conditions.map((c) => canonicalCondition({ point: [...c.point], type: c.type, value: c.value }));
}

describe('the request model tune and --impact share', () => {
  it.each(['/', '/login', '/api/v1/search.json', '/a.tar.gz', '/orders/17/items'])('a tuned scope selects its own hit on %s and not its neighbours', (path) => {
    const scope = hitScope({ domain: 'Shop.Example.com', path });
    expect(unrecordedCondition(scope)).toBeUndefined();
    expect(scopeMatches(scope, at(path))).toBe(true);
    expect(scopeMatches(scope, at(`${path === '/' ? '' : path}/deeper`))).toBe(false);
    expect(scopeMatches(scope, at(path, 'other.example.com'))).toBe(false);
  });

  it.each([
    ['/api/**', '/api/v1/search.json', true], ['/api/**', '/apix', false], ['/orders/*', '/orders/17', true], ['/orders/*', '/orders/17/x', false],
    ['/search', '/search', true], ['/search', '/search.json', false], ['/report.*', '/report.tar.gz', true], ['/', '/', true], ['/', '/x', false],
  ])('url: %s selects %s: %s', (pattern, path, selected) => {
    expect(scopeMatches(url(pattern), at(path))).toBe(selected);
  });

  it('matches the application, a regex with the service\'s (?i), and names a condition hits do not record', () => {
    const instance = canonicalCondition({ point: ['instance'], type: 'equal', value: '7' });
    expect(scopeMatches([instance], at('/x'))).toBe(true);
    expect(scopeMatches([instance], at('/x', 'shop.example.com', 8))).toBe(false);
    const host = canonicalCondition({ point: ['header', 'HOST'], type: 'regex', value: '(?i)^SHOP\\.' });
    expect(scopeMatches([host], at('/x'))).toBe(true);
    const header = canonicalCondition({ point: ['header', 'X-DEBUG'], type: 'equal', value: '1' });
    expect(unrecordedCondition([instance, header])).toBe(header);
    expect(scopeMatches([header], at('/x'))).toBe(false);
    expect(scopeMatches(url('/api/**'), at('[multiple]'))).toBe(false);
  });
});
