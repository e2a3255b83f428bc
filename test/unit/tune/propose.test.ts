/**
 * Hits → proposed rules, against a hand-written list of what the service's
 * scoping algorithm gives: a path with an extension (split at the first dot),
 * the root path, an attack across paths (`[multiple]`), a hit of a type no
 * detector reports (left out), and a stamp two hits share (one rule).
 */
import { describe, expect, it } from 'vitest';
import type { Hit } from '../../../src/hits/read.js';
import { writtenRule } from '../../../src/tune/place.js';
import { groupHits, proposedRules } from '../../../src/tune/propose.js';
import { hitScope } from '../../../src/tune/scope.js';

let serial = 0;
function hit(fields: Partial<Hit> & Pick<Hit, 'type' | 'path' | 'point'>): Hit {
  serial++;
  return {
    id: ['i', `h${serial}`], client: 10042, requestId: 'r1', attackId: ['i', 'a1'], stamps: [], application: 7,
    domain: 'Shop.Example.com', time: 1_800_000_000, blocked: false, regexIds: [], ...fields,
  };
}

const HOST = { point: ['header', 'HOST'], iequal: 'shop.example.com' };

describe('the scope of a hit', () => {
  it.each([
    ['/api/v1/report.tar.gz', [HOST, { point: ['path', 0], equal: 'api' }, { point: ['path', 1], equal: 'v1' }, { point: ['action_name'], equal: 'report' }, { point: ['action_ext'], equal: 'tar.gz' }, { point: ['path', 2], absent: true }]],
    ['/search', [HOST, { point: ['action_name'], equal: 'search' }, { point: ['action_ext'], absent: true }, { point: ['path', 0], absent: true }]],
    ['/', [HOST, { point: ['action_name'], equal: '' }, { point: ['path', 0], absent: true }]],
    ['[multiple]', [HOST]],
  ])('%s', (path, expected) => {
    const [rule] = proposedRules(groupHits([hit({ type: 'xss', path, point: ['get', 'q'] })]), { only: 'attack' });
    expect(rule && writtenRule(rule).when).toEqual(expected);
  });

  it('is a set of canonical conditions (host lower-cased, sorted), so equal scopes group together', () => {
    expect(hitScope({ domain: 'A.example.com', path: '/x' })).toEqual(hitScope({ domain: 'a.EXAMPLE.com', path: '/x' }));
  });
});

describe('grouping and proposing', () => {
  const hits = [
    hit({ type: 'sqli', path: '/search', point: ['get', 'q'], stamps: [7730, 7731] }),
    hit({ type: 'xss', path: '/search', point: ['get', 'q'], stamps: [7731] }),
    hit({ type: 'xss', path: '/search', point: ['post', 'json_doc', 'hash', 'bio'], stamps: [1201] }),
    hit({ type: 'xxe', path: '/upload.xml', point: ['post', 'xml'], stamps: [] }),
    hit({ type: 'brute', path: '/login', point: ['post', 'form_urlencoded', 'password'], stamps: [9] }),
  ];

  const written = (selection?: Parameters<typeof proposedRules>[1]) => proposedRules(groupHits(hits), selection).map((rule) => {
    const w = writtenRule(rule);
    return [w.type, w.stamp ?? w.attack, w.point];
  });

  it('by default the narrowest: one disable_stamp per stamp, a disable_attack_type only where no hit carries a stamp', () => {
    expect(written()).toEqual([
      ['disable_stamp', 7730, [['get', 'q']]],
      ['disable_stamp', 7731, [['get', 'q']]],
      ['disable_stamp', 1201, [['post'], ['json_doc'], ['hash', 'bio']]],
      ['disable_attack_type', 'xxe', [['post'], ['xml']]],
    ]);
  });

  it('--attack-types adds one disable_attack_type per attack type, per point; other types left out', () => {
    expect(written({ attackTypes: true })).toEqual([
      ['disable_stamp', 7730, [['get', 'q']]],
      ['disable_stamp', 7731, [['get', 'q']]],
      ['disable_attack_type', 'sqli', [['get', 'q']]],
      ['disable_attack_type', 'xss', [['get', 'q']]],
      ['disable_stamp', 1201, [['post'], ['json_doc'], ['hash', 'bio']]],
      ['disable_attack_type', 'xss', [['post'], ['json_doc'], ['hash', 'bio']]],
      ['disable_attack_type', 'xxe', [['post'], ['xml']]],
    ]);
  });

  it('--only keeps one rule type', () => {
    expect(proposedRules(groupHits(hits), { only: 'stamp' }).map((r) => r.value)).toEqual([7730, 7731, 1201]);
    expect(proposedRules(groupHits(hits), { only: 'attack' }).map((r) => r.value)).toEqual(['sqli', 'xss', 'xss', 'xxe']);
  });
});
