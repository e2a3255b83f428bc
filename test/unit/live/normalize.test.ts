import { describe, expect, it } from 'vitest';
import { liveRuleFromHint } from '../../../src/live/normalize-hint.js';
import { Interner } from '../../../src/model/interner.js';
import { liveEntriesFromIpRule } from '../../../src/live/ip-backends/v4-records.js';
import { regroupPoints } from '../../../src/grammar/points.js';
import { parseCidr, cidrsOverlap } from '../../../src/model/cidr.js';
import { NEVER_EXPIRES, plainIpEntry, type LiveIpEntry } from '../../../src/model/ip.js';
import type { DesiredState } from '../../../src/model/state.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

const CLIENT = 10042;

describe('regroupPoints', () => {
  it.each([
    [['header', 'HOST'], [['header', 'HOST']]],
    [['post', 'json_doc', 'hash', 'user'], [['post'], ['json_doc'], ['hash', 'user']]],
    [['path', '0', 'get', 'q'], [['path', 0], ['get', 'q']]],
    [[['header', 'host']], [['header', 'HOST']]],
    [['uri'], [['uri']]],
  ])('%j → %j', (flat, grouped) => {
    expect(regroupPoints(flat)).toEqual(grouped);
  });
});

describe('liveRuleFromHint', () => {
  it('shares what the rules of one read repeat: conditions, points, owner, comment and fields', () => {
    const intern = new Interner();
    const hint = (id: number, path: string) => ({
      id, clientid: 10042, type: 'vpatch', attack_type: 'sqli', point: ['header', 'host'], comment: 'shared [managed-by:rampart]',
      action: [{ point: ['instance'], type: 'equal', value: 7 }, { point: ['path', 0], type: 'equal', value: path }],
    });
    const a = liveRuleFromHint(hint(1, 'a'), intern)!;
    const b = liveRuleFromHint(hint(2, 'b'), intern)!;
    const instance = (rule: typeof a) => rule.conditions.find((c) => c.point[0] === 'instance');
    expect(instance(a)).toBe(instance(b));
    expect(a.conditions.find((c) => c.value === 'a')).not.toBe(b.conditions.find((c) => c.value === 'b'));
    expect(a.point[0]).toBe(b.point[0]);
    expect([a.owner, a.comment]).toEqual(['rampart', 'shared']);
    expect(a.comment).toBe(b.comment);
    expect(a.fields).toBe(b.fields);
    // A read of its own shares nothing with this one.
    expect(instance(liveRuleFromHint(hint(3, 'c'))!)).not.toBe(instance(a));
    expect(instance(liveRuleFromHint(hint(3, 'c'))!)).toEqual(instance(a));
  });

  it('normalizes what the server returns into the canonical model', () => {
    const rule = liveRuleFromHint({
      id: 5, clientid: 10042, type: 'vpatch', attack_type: 'any', point: ['header', 'host'],
      comment: 'legacy admin [managed-by:rampart]',
      action: [
        { point: ['path', 0], type: 'equal', value: 'admin' },
        { point: ['instance'], type: 'equal', value: 7 },
        { point: ['header', 'x-debug'], type: 'absent', value: null },
        { point: ['header', 'user-agent'], type: 'iequal', value: 'CurlTool' },
      ],
    });
    expect(rule).toEqual({
      id: 5, client: 10042, kind: 'vpatch', fields: { attack: 'any' }, point: [['header', 'HOST']],
      comment: 'legacy admin', owner: 'rampart',
      conditions: [
        { point: ['header', 'USER-AGENT'], type: 'iequal', value: 'curltool' },
        { point: ['header', 'X-DEBUG'], type: 'absent', value: null },
        { point: ['instance'], type: 'equal', value: '7' },
        { point: ['path', 0], type: 'equal', value: 'admin' },
      ],
    });
  });

  it('drops rule types Rampart does not manage, and the service\'s own system rules', () => {
    expect(liveRuleFromHint({ id: 1, clientid: 1, type: 'attack_rechecker', action: [] })).toBeUndefined();
    expect(liveRuleFromHint({ id: 1, clientid: 1, type: 'service_mode', mode: 'monitoring', system: true, action: [] })).toBeUndefined();
  });

  it('reads every kind through its declaration: API names, what the service echoes (nothing filled in), variants', () => {
    const limit = liveRuleFromHint({
      id: 3, clientid: 1, type: 'rate_limit', point: ['post', 'json_doc', 'hash', 'email'], rate: 30, rsp_status: 429, time_unit: 'rpm', action: [],
    });
    expect(limit?.fields).toEqual({ rate: 30, rsp_status: 429, time_unit: 'rpm' });
    const header = liveRuleFromHint({ id: 4, clientid: 1, type: 'set_response_header', mode: 'replace', name: 'X-Frame-Options', values: ['DENY'], point: [], action: [] });
    expect(header).toMatchObject({ kind: 'set_response_header', fields: { mode: 'replace', header: 'X-Frame-Options', values: ['DENY'] }, point: [] });
    const experimental = liveRuleFromHint({ id: 5, clientid: 1, type: 'experimental_regex', regex: 'x', attack_type: 'sqli', regex_id: 12, point: ['get', 'q'], action: [] });
    expect(experimental).toMatchObject({ kind: 'regex', fields: { regex: 'x', attack: 'sqli', experimental: true }, regexId: 12 });
  });

  it('keeps foreign rules without an owner', () => {
    const rule = liveRuleFromHint({ id: 2, clientid: 1, type: 'service_mode', mode: 'block', action: [], comment: 'by hand' });
    expect(rule).toMatchObject({ kind: 'mode', fields: { mode: 'block' }, comment: 'by hand', point: [] });
    expect(rule?.owner).toBeUndefined();
  });
});

describe('liveEntriesFromIpRule', () => {
  it('reads any expiry more than 50 years ahead as never, as the service\'s clients write "forever" (now + 100 years)', () => {
    const now = Date.now() / 1000;
    const year = 365.25 * 86_400;
    const expiry = (expired_at: number) => liveEntriesFromIpRule({ id: 1, clientid: 1, list: 'black', rule_type: 'ip_range', subnet: '198.51.100.7', pools: [0], expired_at })[0]?.expiresAt;
    expect(expiry(Math.round(now + 100 * year))).toBe(NEVER_EXPIRES);
    expect(expiry(Math.round(now + 51 * year))).toBe(NEVER_EXPIRES);
    expect(expiry(Math.round(now + 49 * year))).toBe(Math.round(now + 49 * year));
  });

  it('a policy date more than 50 years ahead is never too, with a warning, so the two sides match', () => {
    const loaded = loadPolicyTexts([{ file: 'p.yaml', text: `version: 1\nclient: ${CLIENT}\napplication: all\nip_lists:\n  deny:\n    - ips: [198.51.100.7]\n      expires: 2099-01-01\n` }]);
    expect(loaded.desired?.ipEntries[0]?.expiresAt).toBe(NEVER_EXPIRES);
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'far-expiry', line: 7 })]);
  });

  it('an account built by the service\'s clients plans clean against a policy that says never', () => {
    const listed = liveEntriesFromIpRule({
      id: 5, clientid: CLIENT, list: 'black', rule_type: 'ip_range', subnet: '198.51.100.7', pools: [0],
      expired_at: Math.round(Date.now() / 1000 + 100 * 365.25 * 86_400), reason: 'scanner',
    });
    const desired = loadPolicyTexts([{ file: 'p.yaml', text: `version: 1\nclient: ${CLIENT}\napplication: all\nip_lists:\n  deny:\n    - ips: [198.51.100.7]\n      reason: scanner\n` }]);
    const plan = buildPlan(desired.desired as DesiredState, { clients: [CLIENT], rules: [], ipEntries: listed }, { adopt: true });
    expect(plan.changes.map((change) => change.action)).toEqual(['adopt']);
  });

  it('adds the mask to bare addresses', () => {
    const [entry] = liveEntriesFromIpRule({
      id: 9, clientid: 1, list: 'black', rule_type: 'ip_range', subnet: '198.51.100.7', pools: [7],
      expired_at: '33223139044', reason: 'scanner [managed-by:rampart]',
    });
    expect(entry).toEqual({
      id: 9, client: 1, list: 'black', ruleType: 'ip_range', value: '198.51.100.7/32', pools: [7],
      expiresAt: 33223139044, reason: 'scanner', owner: 'rampart', objectSize: 1,
    });
  });

  it('splits a grouped object into one entry per value', () => {
    const entries = liveEntriesFromIpRule({
      id: 3, clientid: 1, list: 'gray', rule_type: 'proxy_type', source_values: ['vpn', 'PUB'], pools: [8, 7],
      expired_at: 2_000_000_000,
    });
    expect(entries.map((entry) => [entry.value, entry.objectSize, entry.pools])).toEqual([
      ['VPN', 2, [7, 8]], ['PUB', 2, [7, 8]],
    ]);
  });

  it('shares what the objects of one read repeat, and keeps the plain form in JSON and a plain copy', () => {
    const intern = new Interner();
    const listed = (id: number, subnet: string, expired_at: number) => liveEntriesFromIpRule({
      id, clientid: 1, list: 'black', rule_type: 'ip_range', subnet, pools: [7], expired_at, reason: `scanner [managed-by:rampart fp:f${id}]`,
    }, intern)[0] as LiveIpEntry;
    const [a, b, later] = [listed(1, '198.51.100.1', 2_000_000_000), listed(2, '198.51.100.2', 2_000_000_000), listed(3, '198.51.100.3', 2_000_000_001)];
    expect(Object.keys(a).sort()).toEqual(['fingerprint', 'id', 'value']);
    expect(a.pools).toBe(b.pools);
    expect([b.fingerprint, later.expiresAt]).toEqual(['f2', 2_000_000_001]);
    expect(JSON.stringify(b)).toBe(JSON.stringify({
      id: 2, client: 1, list: 'black', ruleType: 'ip_range', value: '198.51.100.2/32', pools: [7], expiresAt: 2_000_000_000, objectSize: 1,
      reason: 'scanner', owner: 'rampart', fingerprint: 'f2',
    }));
    expect({ ...plainIpEntry(b) }).toEqual({ client: 1, list: 'black', ruleType: 'ip_range', value: '198.51.100.2/32', pools: [7], expiresAt: 2_000_000_000, reason: 'scanner' });
  });

  it('reads the singular field when source_values is absent', () => {
    const entries = liveEntriesFromIpRule({ id: 4, clientid: 1, list: 'black', rule_type: 'country', country: 'kp', pools: [0] });
    expect(entries.map((entry) => entry.value)).toEqual(['KP']);
  });
});

describe('cidr', () => {
  it('normalizes addresses and subnets', () => {
    expect(parseCidr('10.1.2.3/8')).toEqual({ cidr: '10.0.0.0/8', family: 'ipv4', prefix: 8, hostBitsSet: true });
    expect(parseCidr('2001:DB8::1')?.cidr).toBe('2001:db8::1/128');
    expect(parseCidr('1.2.3')).toBeUndefined();
    expect(parseCidr('1.2.3.4/33')).toBeUndefined();
    expect(parseCidr('nonsense')).toBeUndefined();
  });

  it('detects overlaps within a family', () => {
    expect(cidrsOverlap('10.0.0.0/8', '10.1.0.0/16')).toBe(true);
    expect(cidrsOverlap('10.0.0.0/16', '10.1.0.0/16')).toBe(false);
    expect(cidrsOverlap('10.0.0.0/8', '::/0')).toBe(false);
  });
});
