/** `url:` scopes expand to the service's conditions, as the policy reference's table says, and as tune scopes a hit. */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { urlScope } from '../../../src/policy/url-scope.js';
import { hitScope } from '../../../src/tune/scope.js';

const show = (url: string) => {
  const scope = urlScope(url);
  return scope.ok ? scope.conditions.map((c) => `${c.point.join(' ')} ${c.type}${c.value === null ? '' : ` ${JSON.stringify(c.value)}`}`) : scope.message;
};

describe('a URL as the service\'s conditions', () => {
  it.each([
    ['/', ['action_name equal ""', 'action_ext absent', 'path 0 absent']],
    ['/login', ['action_name equal "login"', 'action_ext absent', 'path 0 absent']],
    ['/api/v1/search.json', ['path 0 equal "api"', 'path 1 equal "v1"', 'action_name equal "search"', 'action_ext equal "json"', 'path 2 absent']],
    ['/a.tar.gz', ['action_name equal "a"', 'action_ext equal "tar.gz"', 'path 0 absent']],
    ['Shop.Example.com/login', ['header HOST iequal "shop.example.com"', 'action_name equal "login"', 'action_ext absent', 'path 0 absent']],
    ['/orders/*', ['path 0 equal "orders"', 'path 1 absent']],
    ['/img/*.*', ['path 0 equal "img"', 'path 1 absent']],
    ['/report.*', ['action_name equal "report"', 'path 0 absent']],
    ['/api/**', ['path 0 equal "api"']],
    ['/**/*.*', []],
  ])('%s', (url, conditions) => {
    expect(show(url)).toEqual(conditions);
  });

  it.each([
    ['shop.example.com', /has no path/], ['/a//b', /empty segment/], ['/a/**/b', /"\*\*" may only end a pattern/], ['/search?q=1', /query or fragment/], ['bad host!/x', /not a host name/],
  ])('refuses %s', (url, message) => {
    expect(show(url)).toMatch(message);
  });

  it('gives the conditions tune gives a hit on the same URL', () => {
    for (const path of ['/api/v1/search.json', '/a.tar.gz', '/login']) {
      const loaded = loadPolicyTexts([{ file: 'p.yaml', text: stringify({ version: 1, client: 1, application: 'all', rules: [{ name: 'r', type: 'masking', point: [['get', 'q']], when: [{ url: `shop.example.com${path}` }] }] }) }]);
      expect(loaded.desired?.rules[0]?.conditions).toEqual(hitScope({ domain: 'shop.example.com', path }));
    }
  });
});
