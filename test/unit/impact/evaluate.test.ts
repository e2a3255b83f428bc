/**
 * The impact of each kind of change against hand-made requests, in process:
 * which rule governs a request (the most specific mode rule), what each mode
 * blocks (the gray list under safe_blocking, the allow list always), a patch
 * on the Host, subnets and applications of IP entries, deletes, and what
 * hits cannot show. The counts are those each case's requests imply.
 */
import { describe, expect, it } from 'vitest';
import { evaluateChanges } from '../../../src/impact/evaluate.js';
import { hitsWanted } from '../../../src/impact/read.js';
import type { DesiredState } from '../../../src/model/state.js';
import type { LiveRule } from '../../../src/model/rule.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { CLIENT, desired, hit, impactsOf, indexOf, liveOf } from '../../helpers/impact.js';

describe('a filtering mode change', () => {
  it('counts only the requests it governs: a more specific rule keeps its own', async () => {
    const before = 'mode: monitoring\nrules:\n  - { name: admin, type: mode, mode: monitoring, when: [{ url: /admin/** }] }\n';
    const after = 'mode: block\nrules:\n  - { name: admin, type: mode, mode: monitoring, when: [{ url: /admin/** }] }\n';
    const hits = [hit(), hit({ path: '/login' }), hit({ path: '/admin/users' }), hit({ block_status: 'blocked' })];
    const impact = impactsOf(before, after, hits).get('update mode mode');
    // Both sides modelled: the hit the service recorded as blocked under monitoring is newly blocked by the model too
    // (that the record disagrees is the agreement check's to say).
    expect(impact).toMatchObject({ effect: 'newly_blocked', requests: 3, pathCount: 2 });
  });

  it('blocks under safe_blocking only what comes from a graylisted source, and never an allowlisted one', async () => {
    const lists = 'ip_lists:\n  gray:\n    - ips: [198.51.100.0/24]\n  allow:\n    - ips: [198.51.100.7]\n';
    const impact = impactsOf(`mode: monitoring\n${lists}`, `mode: safe_blocking\n${lists}`, [
      hit({ ip: '198.51.100.3' }), hit({ ip: '198.51.100.7' }), hit({ ip: '192.0.2.9' }),
    ]).get('update mode mode');
    expect(impact).toMatchObject({ effect: 'newly_blocked', requests: 1, sampleRequestIds: [expect.any(String)] });
  });

  it('from block to monitoring: the requests it governs are let through, a denylisted source stays blocked', async () => {
    const deny = 'ip_lists:\n  deny:\n    - countries: [KP]\n';
    const impact = impactsOf(`mode: block\n${deny}`, `mode: monitoring\n${deny}`, [
      hit({ block_status: 'blocked' }), hit({ block_status: 'blocked', remote_country: 'KP' }), hit(),
    ]).get('update mode mode');
    // Under block the model blocks all three; under monitoring only the denylisted one.
    expect(impact).toMatchObject({ effect: 'no_longer_blocked', requests: 2 });
  });

  it('is not evaluable when its scope tests what hits do not record', async () => {
    const impact = impactsOf('', 'rules:\n  - { name: hc, type: mode, mode: block, when: [{ point: [header, X-FORWARDED-FOR], absent: true }] }\n', [hit()]).get('create mode hc');
    expect(impact).toMatchObject({ effect: 'not_evaluable', evaluable: false });
  });
});

describe('rules that block, detect or ignore at a point', () => {
  it('a patch on the Host acts on every request of its scope, a floor of what it blocks', async () => {
    const impact = impactsOf('', 'rules:\n  - { name: admin, type: vpatch, attack: any, point: [[header, HOST]], when: [{ url: /admin/** }] }\n', [
      hit({ path: '/admin/a' }), hit({ path: '/admin/b/c', block_status: 'blocked' }), hit({ path: '/shop' }),
    ]).get('create vpatch admin');
    expect(impact).toMatchObject({ effect: 'newly_blocked', requests: 1, lowerBound: true });
  });

  it('a regex is tried on the values the hits recorded at its point', async () => {
    const impact = impactsOf('', 'rules:\n  - { name: scan, type: regex, regex: "(?i)^sqlmap", attack: scanner, point: [[get, q]] }\n', [
      hit({ value: 'SQLMap/1.7' }), hit({ value: 'curl' }), hit({ value: 'sqlmap', point: ['get', 'other'] }),
    ]).get('create regex scan');
    expect(impact).toMatchObject({ effect: 'newly_detected', requests: 1, lowerBound: true });
  });

  it('an ignored attack type stops detecting what its scope flagged of that type; its delete detects them again', async () => {
    const rule = 'rules:\n  - { name: fp, type: disable_attack_type, attack: sqli, point: [[get, q]], when: [{ url: shop.example.com/api/search }] }\n';
    const hits = [hit(), hit({ type: 'xss' }), hit({ domain: 'other.example.com' }), hit({ path: '/api/search.json' })];
    expect(impactsOf('', rule, hits).get('create disable_attack_type fp')).toMatchObject({ effect: 'no_longer_detected', requests: 1 });
    expect(impactsOf(rule, '', hits).get('delete disable_attack_type')).toMatchObject({ effect: 'newly_detected', requests: 1 });
  });

  it('a comment alone changes nothing, and an abuse control is not evaluable, with why', async () => {
    const control = (comment: string) => 'rules:\n  - name: login\n    type: brute\n    mode: block\n    threshold: { count: 20, period: 60 }\n    reaction: { block_by_ip: 1h }\n'
      + `    enumerated_parameters: { mode: exact, points: [{ point: [[post], [json_doc], [hash, password]], sensitive: true }] }\n    comment: ${comment}\n`;
    const patch = (comment: string) => `  - { name: p, type: vpatch, attack: any, point: [[get, q]], comment: ${comment} }\n`;
    const impacts = impactsOf(`${control('a')}${patch('a')}`, `${control('a')}${patch('b')}`, [hit()]);
    expect(impacts.get('update vpatch p')).toMatchObject({ effect: 'none', reason: 'only the comment changes' });
    const created = impactsOf('', control('a'), [hit()]).get('create brute login');
    expect(created).toMatchObject({ effect: 'not_evaluable' });
    expect(created?.reason).toMatch(/request counts over time/);
  });
});

describe('IP-list entries', () => {
  it('a deny subnet counts the attack requests from addresses inside it, in the applications it covers', async () => {
    const impact = impactsOf('', 'ip_lists:\n  deny:\n    - ips: [203.0.113.0/24]\n', [
      hit({ ip: '203.0.113.5' }), hit({ ip: '203.0.113.200', block_status: 'blocked' }), hit({ ip: '203.0.114.1' }), hit({ ip: '203.0.113.9', poolid: 8 }),
    ]).get('create black');
    expect(impact).toMatchObject({ effect: 'attack_hits_from', requests: 2, ips: 2 });
  });

  it('an allow entry counts the blocked requests it would let through; a removed deny entry the requests from it', async () => {
    const allow = impactsOf('', 'ip_lists:\n  allow:\n    - proxies: [TOR]\n', [hit({ proxy_type: 'TOR', block_status: 'blocked' }), hit({ proxy_type: 'TOR' })]).get('create white');
    expect(allow).toMatchObject({ effect: 'no_longer_blocked', requests: 1 });
    const removed = impactsOf('ip_lists:\n  deny:\n    - datacenters: [ovh]\n', '', [hit({ datacenter: 'ovh', block_status: 'blocked' })]).get('delete ip');
    expect(removed).toMatchObject({ effect: 'attack_hits_from', requests: 1 });
  });
});

describe('an experimental regex promoted to a blocking one', () => {
  it('counts what the experimental rule matched, by its regex id, not a floor', async () => {
    const rule = (experimental: boolean) => `rules:\n  - { name: t, type: regex, regex: curltool, attack: scanner, point: [[header, USER-AGENT]], experimental: ${experimental} }\n`;
    const live = liveOf(rule(true));
    const trial = { ...(live.rules[0] as LiveRule), regexId: 42 } as LiveRule;
    const plan = buildPlan(desired(rule(false)), { ...live, rules: [trial] });
    const impacts = evaluateChanges({
      changes: plan.changes, live: { ...live, rules: [trial] }, seen: indexOf([]),
      experimental: indexOf([hit({ regex: [42] }), hit({ regex: [42] }), hit({ regex: [7] })]),
    });
    const created = [...impacts].find(([change]) => change.action === 'create')?.[1];
    expect(created).toMatchObject({ effect: 'newly_detected', requests: 2 });
    expect(created?.lowerBound).toBeUndefined();
  });
});

describe('what the impact reads', () => {
  it('narrows to the applications the changes name, and to every one where a change is account-wide', () => {
    const scoped = buildPlan(desired('rules:\n  - { name: p, type: vpatch, attack: any, point: [[get, q]], when: [{ url: shop.example.com/x }] }\n'), liveOf(''));
    expect(hitsWanted(scoped.changes).get(CLIENT)).toEqual({ applications: new Set([7]), experimental: false });
    const wide = loadPolicyTexts([{ file: 'policies/all.yaml', text: `version: 1\nclient: ${CLIENT}\napplication: all\nip_lists:\n  deny:\n    - countries: [KP]\n` }]).desired;
    expect(hitsWanted(buildPlan(wide as DesiredState, liveOf('')).changes).get(CLIENT)).toEqual({ experimental: false });
    const regex = buildPlan(desired('rules:\n  - { name: r, type: regex, regex: x, attack: scanner, point: [[get, q]] }\n'), liveOf(''));
    expect(hitsWanted(regex.changes).get(CLIENT)).toMatchObject({ experimental: true });
  });
});
