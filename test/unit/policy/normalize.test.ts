/** The normalizer: policy text → DesiredState in the canonical form the server reads back. */
import { describe, expect, it } from 'vitest';
import { NEVER_EXPIRES } from '../../../src/model/ip.js';
import { ruleKey } from '../../../src/model/rule.js';
import { loadPolicyTexts } from '../../../src/policy/index.js';

const NOW = new Date('2026-01-01T00:00:00Z');

function desiredOf(...texts: string[]) {
  const result = loadPolicyTexts(texts.map((text, i) => ({ file: `p${i}.yaml`, text })), { now: NOW });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(errors).toEqual([]);
  if (!result.desired) throw new Error('no desired state');
  return result.desired;
}

const head = (application: string) => `version: 1\nclient: 10042\napplication: ${application}\n`;

describe('rules', () => {
  it('adds the instance condition and canonicalizes points and conditions', () => {
    const desired = desiredOf(
      head('7') +
        `rules:
  - name: r
    type: vpatch
    attack: any
    point: [[header, host], [path, 0]]
    when:
      - { point: [header, x-api], iequal: MiXeD }
      - { point: [get, Key], equal: Value }
      - { point: [header, x-gone], absent: true }
    comment: why
`,
    );
    expect(desired.clients).toEqual([10042]);
    expect(desired.rules).toHaveLength(1);
    const [rule] = desired.rules;
    expect(rule).toMatchObject({
      client: 10042,
      kind: 'vpatch',
      fields: {},
      point: [['header', 'HOST'], ['path', 0]],
      comment: 'why',
      conditions: [
        { point: ['get', 'Key'], type: 'equal', value: 'Value' },
        { point: ['header', 'X-API'], type: 'iequal', value: 'mixed' },
        { point: ['header', 'X-GONE'], type: 'absent', value: null },
        { point: ['instance'], type: 'equal', value: '7' },
      ],
      source: { file: 'p0.yaml', line: 5, col: 5, name: 'r' },
    });
  });

  it('compares equal on [header, HOST] in the form the service stores (iequal, lower-cased) and says so', () => {
    const text = head('7') + `rules:
  - name: r
    type: vpatch
    attack: any
    point: [[get, q]]
    when:
      - { point: [header, host], equal: Shop.Example.com }
      - { point: [header, X-Host], equal: Keep.Case }
`;
    const result = loadPolicyTexts([{ file: 'p0.yaml', text }], { now: NOW });
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'host-equal', line: 10, col: 41 })]);
    expect(result.desired?.rules[0]?.conditions).toEqual([
      { point: ['header', 'HOST'], type: 'iequal', value: 'shop.example.com' },
      { point: ['header', 'X-HOST'], type: 'equal', value: 'Keep.Case' },
      { point: ['instance'], type: 'equal', value: '7' },
    ]);
  });

  it('makes one rule per application of a list, and none for "all"', () => {
    const rule = `rules:\n  - { name: r, type: regex, regex: "a+", attack: scanner, point: [[uri]] }\n`;
    const listed = desiredOf(head('[8, 7]') + rule);
    expect(listed.rules.map((r) => r.conditions)).toEqual([
      [{ point: ['instance'], type: 'equal', value: '7' }],
      [{ point: ['instance'], type: 'equal', value: '8' }],
    ]);
    const all = desiredOf(head('all') + rule);
    expect(all.rules).toHaveLength(1);
    expect(all.rules[0]).toMatchObject({ kind: 'regex', fields: { regex: 'a+', attack: 'scanner', experimental: false }, conditions: [] });
  });

  it('turns top-level mode and mode rules into service_mode rules', () => {
    const desired = desiredOf(
      head('7') + `mode: monitoring\nrules:\n  - name: admin\n    type: mode\n    mode: block\n    when: [{ point: [path, 0], equal: admin }]\n`,
    );
    const modes = desired.rules.map((r) => ({ kind: r.kind, fields: r.fields, point: r.point, name: r.source.name, n: r.conditions.length }));
    expect(modes).toEqual([
      { kind: 'mode', fields: { mode: 'block' }, point: [], name: 'admin', n: 2 },
      { kind: 'mode', fields: { mode: 'monitoring' }, point: [], name: 'mode', n: 1 },
    ]);
  });

  it('orders output deterministically whatever the file order', () => {
    const a = head('7') + `rules:\n  - { name: b, type: vpatch, attack: any, point: [[get, b]] }\n  - { name: a, type: vpatch, attack: any, point: [[get, a]] }\n`;
    const b = head('8') + `mode: block\n`;
    const one = desiredOf(a, b);
    const two = loadPolicyTexts([{ file: 'p1.yaml', text: b }, { file: 'p0.yaml', text: a }], { now: NOW }).desired;
    expect(two).toEqual(one);
    const keys = one.rules.map(ruleKey);
    expect([...keys].sort()).toEqual(keys);
  });
});

describe('IP entries', () => {
  it('normalizes values, pools, expiry and reason, one entry per value', () => {
    const desired = desiredOf(
      head('[8, 7]') +
        `ip_lists:
  deny:
    - ips: [198.51.100.7, "2001:DB8:0:0::1", 203.0.113.0/24]
      reason: scanners
      expires: 2027-01-31
  allow:
    - countries: [de]
      expires: 2027-01-31T12:00:00+02:00
  gray:
    - proxies: [tor, Vpn]
      expires: never
    - datacenters: [AWS]
`,
    );
    const values = desired.ipEntries.map((e) => [e.list, e.ruleType, e.value, e.pools, e.expiresAt, e.reason ?? null]);
    expect(values).toEqual([
      ['black', 'ip_range', '198.51.100.7/32', [7, 8], 1801353600, 'scanners'],
      ['black', 'ip_range', '2001:db8::1/128', [7, 8], 1801353600, 'scanners'],
      ['black', 'ip_range', '203.0.113.0/24', [7, 8], 1801353600, 'scanners'],
      ['gray', 'datacenter', 'aws', [7, 8], NEVER_EXPIRES, null],
      ['gray', 'proxy_type', 'TOR', [7, 8], NEVER_EXPIRES, null],
      ['gray', 'proxy_type', 'VPN', [7, 8], NEVER_EXPIRES, null],
      ['white', 'country', 'DE', [7, 8], Date.UTC(2027, 0, 31, 10) / 1000, null],
    ]);
    expect(desired.ipEntries[0]?.source).toEqual({ file: 'p0.yaml', line: 6, col: 13, name: 'ip_lists.deny[0].ips[0]' });
  });

  it('uses pool 0 for application "all" and normalizes host bits with a warning', () => {
    const result = loadPolicyTexts([{ file: 'a.yaml', text: head('all') + 'ip_lists:\n  deny:\n    - ips: [10.1.2.3/20]\n' }], { now: NOW });
    expect(result.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'host-bits']]);
    expect(result.desired?.ipEntries.map((e) => [e.value, e.pools])).toEqual([['10.1.0.0/20', [0]]]);
  });

  it('refuses an integer past 2^53 where it is written, instead of reading it rounded', () => {
    const rule = 'rules:\n  - { name: r, type: disable_stamp, stamp: 9007199254740993, point: [[get, q]] }\n';
    const result = loadPolicyTexts([{ file: 'a.yaml', text: head('7') + rule }], { now: NOW });
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: 'integer-too-large', line: 5, col: 44, message: expect.stringContaining('rules[0].stamp is beyond 9007199254740991') as unknown })]);
    const client = loadPolicyTexts([{ file: 'a.yaml', text: 'version: 1\nclient: 9007199254740993\napplication: 7\n' }], { now: NOW });
    expect(client.diagnostics.map((d) => d.code)).toEqual(['integer-too-large']);
  });

  it('warns on an IPv4 subnet wider than /20, naming why, and keeps it', () => {
    const result = loadPolicyTexts([{ file: 'a.yaml', text: head('all') + 'ip_lists:\n  deny:\n    - ips: [10.0.0.0/16]\n' }], { now: NOW });
    expect(result.diagnostics).toEqual([expect.objectContaining({
      severity: 'warning', code: 'wide-subnet', line: 6, message: expect.stringContaining('the service\'s former client refused such IPv4 subnets') as unknown,
    })]);
    expect(result.desired?.ipEntries.map((e) => e.value)).toEqual(['10.0.0.0/16']);
  });

  it('drops expired entries with a warning and keeps the rest', () => {
    const result = loadPolicyTexts(
      [{ file: 'a.yaml', text: head('7') + 'ip_lists:\n  deny:\n    - { ips: [192.0.2.1], expires: 2025-12-31 }\n    - { ips: [192.0.2.2] }\n' }],
      { now: NOW },
    );
    expect(result.diagnostics.map((d) => d.code)).toEqual(['expired']);
    expect(result.desired?.ipEntries.map((e) => e.value)).toEqual(['192.0.2.2/32']);
  });
});

describe('checks across files', () => {
  const deny = (application: string, ip: string) => head(application) + `ip_lists:\n  deny:\n    - ips: [${ip}]\n`;
  const allow = (application: string, ip: string) => head(application) + `ip_lists:\n  allow:\n    - ips: [${ip}]\n`;

  it('flags an address allowed and denied for overlapping applications, "all" overlapping everything', () => {
    const result = loadPolicyTexts([{ file: 'a.yaml', text: deny('all', '192.0.2.1') }, { file: 'b.yaml', text: allow('7', '192.0.2.1/32') }]);
    expect(result.diagnostics).toMatchObject([{ file: 'b.yaml', line: 6, col: 13, code: 'ip-conflict' }]);
    expect(result.diagnostics[0]?.message).toContain('a.yaml:6:13');
    expect(result.desired).toBeUndefined();
  });

  it('accepts the same address for disjoint applications', () => {
    const desired = desiredOf(deny('7', '192.0.2.1'), allow('8', '192.0.2.1'));
    expect(desired.ipEntries.map((e) => [e.list, e.pools])).toEqual([['black', [7]], ['white', [8]]]);
  });

  it('flags the same rule declared in two files', () => {
    const rule = `rules:\n  - { name: r, type: vpatch, attack: any, point: [[uri]] }\n`;
    const result = loadPolicyTexts([{ file: 'a.yaml', text: head('[7, 8]') + rule }, { file: 'b.yaml', text: head('8') + rule }]);
    expect(result.diagnostics.map((d) => [d.file, d.code])).toEqual([['b.yaml', 'duplicate-rule']]);
  });

  it('warns on nested subnets in one list, not across lists', () => {
    const result = loadPolicyTexts([{ file: 'a.yaml', text: deny('7', '10.0.0.0/20') }, { file: 'b.yaml', text: deny('all', '10.0.1.0/24') }, { file: 'c.yaml', text: allow('7', '10.0.2.0/24') }]);
    expect(result.diagnostics.map((d) => [d.file, d.code, d.severity])).toEqual([['b.yaml', 'subnet-overlap', 'warning']]);
    expect(result.desired?.ipEntries).toHaveLength(3);
  });

  it('reports every problem of every file at once', () => {
    const result = loadPolicyTexts([
      { file: 'a.yaml', text: head('7') + 'mode: blok\nip_lists:\n  deny:\n    - countries: [XX]\n' },
      { file: 'b.yaml', text: 'version: 1\nclient: 0\napplication: 7\nrules:\n  - { name: r, type: regex, regex: "(", attack: scanner, point: [[uri]] }\n' },
    ]);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.code}`)).toEqual([
      'a.yaml:4:invalid-value', 'a.yaml:7:unknown-country', 'b.yaml:2:invalid-id', 'b.yaml:5:invalid-regex',
    ]);
  });
});

describe('regex dialect', () => {
  const rule = (regex: string) => head('7') + `rules:\n  - { name: r, type: regex, attack: scanner, point: [[uri]], regex: ${JSON.stringify(regex)} }\n`;
  it.each(['(?i)curl', '\\Aadmin\\z', '(?>ab)c', 'a++b', '\\-\\_', '[[:alpha:]]+'])('accepts PCRE %s', (regex) => {
    expect(loadPolicyTexts([{ file: 'a.yaml', text: rule(regex) }]).diagnostics).toEqual([]);
  });
  it.each(['(', 'a**', '[b-a]', '(?<n>a)(?<n>b)'])('rejects %s', (regex) => {
    expect(loadPolicyTexts([{ file: 'a.yaml', text: rule(regex) }]).diagnostics.map((d) => d.code)).toEqual(['invalid-regex']);
  });
});
