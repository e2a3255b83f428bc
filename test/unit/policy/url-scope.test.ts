/** `url:` scopes expand to the service's conditions, as the policy reference's table says, and as tune scopes a hit. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    ['https://Shop.Example.com/login', ['scheme equal "https"', 'header HOST iequal "shop.example.com"', 'action_name equal "login"', 'action_ext absent', 'path 0 absent']],
    ['/orders/*', ['path 0 equal "orders"', 'action_ext absent', 'path 1 absent']],
    ['/img/*.*', ['path 0 equal "img"', 'path 1 absent']],
    ['/img/*.jpg', ['path 0 equal "img"', 'action_ext equal "jpg"', 'path 1 absent']],
    ['/report.*', ['action_name equal "report"', 'path 0 absent']],
    ['/*/orders', ['action_name equal "orders"', 'action_ext absent', 'path 1 absent']],
    ['/orders/**/*', ['path 0 equal "orders"', 'action_ext absent']],
    ['/api/v1/**/*.*', ['path 0 equal "api"', 'path 1 equal "v1"']],
    ['/api/**/*.json', ['path 0 equal "api"', 'action_ext equal "json"']],
    ['/api/**', ['path 0 equal "api"']],
    ['/**/*', ['action_ext absent']],
    ['/**/*.*', []],
  ])('%s', (url, conditions) => {
    expect(show(url)).toEqual(conditions);
  });

  it.each([
    ['shop.example.com', /has no path/], ['/a//b', /empty segment/], ['/a/**/b/c', /"\*\*" may only come last/], ['/**/**/x', /"\*\*" may only come last/],
    ['/search?q=1', /query or fragment/], ['bad host!/x', /not a host name/], ['ftp://host/x', /holds http or https, not "ftp"/],
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

describe('what a URL pattern means when it reads like something else', () => {
  const warnings = (url: string) => {
    const scope = urlScope(url);
    return scope.ok ? scope.warnings : [scope.message];
  };

  it.each([
    ['/.*', /"\.\*" is not a regex here: it is the name "" with any extension/],
    ['/.*/x', /"\.\*" is not a regex here: it is a directory named "\.\*"/],
    ['/a*b', /"\*" inside "a\*b" is compared as the character "\*"/],
    ['/x*/y', /"\*" inside "x\*" is compared as the character "\*"/],
    ['/report.j*', /"\*" inside "report\.j\*"/],
    ['/**/*.*', /matches every path: the rule applies to every request/],
    ['/**', /matches every path/],
    ['shop.example.com/**/*.*', /matches every path of shop\.example\.com: only the host and scheme are conditions/],
  ])('%s warns', (url, message) => {
    expect(warnings(url)).toEqual([expect.stringMatching(message)]);
  });

  it.each(['/orders/*', '/img/*.*', '/img/*.jpg', '/report.*', '/*/x', '/orders/**/*', '/api/**', '/'])('%s does not warn', (url) => {
    expect(warnings(url)).toEqual([]);
  });

  it('validate says it at the url, as a warning', () => {
    const text = stringify({ version: 1, client: 1, application: 7, rules: [{ name: 'r', type: 'vpatch', attack: 'sqli', point: [['get', 'q']], when: [{ url: '/a*b' }] }] });
    const loaded = loadPolicyTexts([{ file: 'p.yaml', text }]);
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'url-pattern', line: expect.any(Number) as number })]);
    expect(loaded.desired?.rules).toHaveLength(1);
  });
});

describe('the policy reference\'s url table', () => {
  /** `[path, 0]` equal `api` → `path 0 equal "api"`, in the test's notation. */
  const described = (text: string): string[] => [...text.matchAll(/`(\[[^`\]]+\]|action_name|action_ext)` (equal|iequal|absent)(?: `([^`]*)`)?/g)]
    .map(([, point, type, value]) => {
      const bare = (point as string).replace(/^\[|\]$/g, '').split(', ').join(' ');
      return `${bare} ${type}${type === 'absent' ? '' : ` ${JSON.stringify(value === '""' ? '' : point === '[header, HOST]' ? (value as string).toLowerCase() : value)}`}`;
    });
  const reference = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'policy-reference.md'), 'utf8');
  const table = reference.slice(reference.indexOf('| `url:` | conditions |')).split('\n\n')[0] as string;
  const rows = table.split('\n').slice(2).map((line) => {
    const row = /^\| `([^`]+)` \| (.+) \|$/.exec(line);
    if (!row) throw new Error(`not a row of the url table: ${line}`);
    return [row[1] as string, row[2] as string] as const;
  });

  it('has a row for each of the console\'s forms', () => {
    expect(rows.map(([url]) => url)).toEqual(expect.arrayContaining(['/orders/*', '/img/*.*', '/img/*.jpg', '/report.*', '/orders/**/*', '/api/v1/**/*.*', '/**/*.*', 'https://shop.example.com/login']));
  });

  it.each(rows)('%s expands as its row says', (url, text) => {
    const expected = described(text);
    const alias = /(?:then as|the same as) `([^`]+)`/.exec(text)?.[1];
    if (alias) expected.push(...(show(alias) as string[]));
    expect([...(show(url) as string[])].sort()).toEqual([...new Set(expected)].sort());
  });
});
