/** The pure export core: selection, file layout, round trip and determinism. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildExport } from '../../../src/export/build.js';
import type { ExportOptions } from '../../../src/export/types.js';
import { NEVER_EXPIRES, type LiveIpEntry } from '../../../src/model/ip.js';
import type { LiveRule } from '../../../src/model/rule.js';
import type { FieldValue } from '../../../src/rules/field.js';
import type { KindName } from '../../../src/rules/registry.js';
import type { LiveState } from '../../../src/model/state.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

const NOW = 1_800_000_000;
const OPTIONS: ExportOptions = { client: 1, owner: 'rampart', excludeOwned: true, now: NOW, schemaRef: '../schemas/policy.schema.json' };

let nextId = 1;
type RuleOverrides = Partial<Omit<LiveRule, 'kind' | 'fields'>> & { kind?: KindName; fields?: Readonly<Record<string, FieldValue>> };
function rule({ kind = 'vpatch', fields, ...overrides }: RuleOverrides = {}): LiveRule {
  return {
    id: nextId++, client: 1, kind, point: [['header', 'HOST']], fields: fields ?? (kind === 'vpatch' ? { attack: 'any' } : {}),
    conditions: [{ point: ['instance'], type: 'equal', value: '7' }], ...overrides,
  } as LiveRule;
}
function ip(overrides: Partial<LiveIpEntry> = {}): LiveIpEntry {
  return {
    id: nextId++, client: 1, list: 'black', ruleType: 'ip_range', value: '192.0.2.1/32', pools: [7],
    expiresAt: NEVER_EXPIRES, objectSize: 1, ...overrides,
  };
}
function state(rules: LiveRule[], ipEntries: LiveIpEntry[] = []): LiveState {
  return { clients: [1], rules, ipEntries };
}

describe('buildExport', () => {
  it('places rules by instance condition and IP entries by pools', () => {
    const result = buildExport(state(
      [rule(), rule({ conditions: [] }), rule({ conditions: [{ point: ['instance'], type: 'equal', value: '8' }] })],
      [ip({ pools: [0] }), ip({ pools: [7, 8], ruleType: 'country', value: 'KP' })],
    ), OPTIONS);
    expect(result.files.map((f) => [f.name, f.rules, f.ipValues])).toEqual([
      ['account-wide.yaml', 1, 1], ['app-7.yaml', 1, 0], ['app-8.yaml', 1, 0], ['apps-7-8.yaml', 0, 1],
    ]);
    expect(result.skipped).toEqual([]);
  });

  it('leaves out, with reasons, what a policy cannot hold', () => {
    const owned = rule({ owner: 'rampart', comment: 'ours' });
    const other = rule({ owner: 'team-b' });
    const twoApps = rule({ conditions: [{ point: ['instance'], type: 'equal', value: '7' }, { point: ['instance'], type: 'equal', value: '8' }] });
    const original = rule({ fields: { attack: 'xss' } });
    const copy = rule({ fields: { attack: 'xss' }, comment: 'copy' });
    const modeA = rule({ kind: 'mode', point: [], fields: { mode: 'block' } });
    const modeB = rule({ kind: 'mode', point: [], fields: { mode: 'off' } });
    const noAttack = rule({ fields: {}, point: [['get', 'x']] });
    const expired = ip({ expiresAt: NOW - 1 });
    const mixedPools = ip({ pools: [0, 7], value: '192.0.2.2/32' });
    const deny = ip({ value: '192.0.2.3/32' });
    const allow = ip({ value: '192.0.2.3/32', list: 'white', pools: [0] });
    const result = buildExport(state([owned, other, twoApps, original, copy, modeA, modeB, noAttack], [expired, mixedPools, deny, allow]), OPTIONS);
    const reasons = Object.fromEntries(result.skipped.map((s) => [s.id, s.reason]));
    expect(reasons).toEqual({
      [owned.id]: 'owned', [other.id]: 'other-owner', [twoApps.id]: 'unmappable', [copy.id]: 'duplicate',
      [modeB.id]: 'conflict', [expired.id]: 'expired', [mixedPools.id]: 'unmappable', [allow.id]: 'conflict',
      // A virtual patch listed without its attack type: the service never stores one, and a policy must name it.
      [noAttack.id]: 'invalid',
    });
    const texts = result.files.map((f) => ({ file: f.name, text: f.text }));
    expect(loadPolicyTexts(texts, { now: new Date(NOW * 1000) }).desired).toBeDefined();
  });

  it('by default (excludeOwned false) exports our objects, without the mark, and still leaves out other owners', () => {
    const owned = rule({ owner: 'rampart', comment: 'ours' });
    const other = rule({ owner: 'team-b', fields: { attack: 'sqli' } });
    const result = buildExport(state([owned, other]), { ...OPTIONS, excludeOwned: false });
    expect(result.skipped.map((s) => s.reason)).toEqual(['other-owner']);
    const doc = parse(result.files[0]?.text ?? '');
    expect(doc.rules[0].comment).toBe('ours');
  });

  it('drops a comment or reason the policy format rejects instead of the object', () => {
    const r = rule({ comment: 'see [managed-by: the console' });
    const result = buildExport(state([r], [ip({ reason: 'x [managed-by:y] z' })]), OPTIONS);
    expect(result.skipped).toEqual([]);
    expect(result.files[0]?.text).not.toContain('managed-by');
  });

  it('leaves out a rule whose regex the validator rejects, and keeps the rest', () => {
    const bad = rule({ kind: 'regex', fields: { regex: '(unclosed', attack: 'scanner', experimental: false } });
    const good = rule({ fields: { attack: 'rce' } });
    const result = buildExport(state([bad, good]), OPTIONS);
    expect(result.skipped).toMatchObject([{ id: bad.id, reason: 'invalid', detail: expect.stringContaining('invalid-regex') }]);
    expect(result.files[0]?.rules).toBe(1);
  });

  it('writes expiries as RFC 3339, never as omitted, and groups entries sharing kind, expiry and reason', () => {
    const result = buildExport(state([], [
      ip({ value: '198.51.100.0/24', expiresAt: 1_900_000_000, reason: 'farm' }),
      ip({ value: '192.0.2.7/32', expiresAt: 1_900_000_000, reason: 'farm' }),
      ip({ value: '2001:db8::/48' }),
      ip({ ruleType: 'country', value: 'KP', list: 'gray' }),
    ]), OPTIONS);
    const doc = parse(result.files[0]?.text ?? '');
    expect(doc.ip_lists).toEqual({
      deny: [{ ips: ['192.0.2.7', '198.51.100.0/24'], reason: 'farm', expires: '2030-03-17T17:46:40Z' }, { ips: ['2001:db8::/48'] }],
      gray: [{ countries: ['KP'] }],
    });
  });

  it('is byte-stable: ids and listing order do not change the output', () => {
    const make = (base: number) => {
      nextId = base;
      return state(
        [rule({ comment: 'a' }), rule({ fields: { attack: 'sqli' } }), rule({ kind: 'mode', point: [], fields: { mode: 'block' } })],
        [ip({ value: '192.0.2.9/32' }), ip({ value: '192.0.2.8/32' }), ip({ ruleType: 'proxy_type', value: 'TOR', pools: [0] })],
      );
    };
    const a = make(100);
    const b = make(5000);
    const shuffled: LiveState = { clients: b.clients, rules: [...b.rules].reverse(), ipEntries: [...b.ipEntries].reverse() };
    const first = buildExport(a, OPTIONS).files;
    expect(buildExport(shuffled, OPTIONS).files).toEqual(first);
    expect(first.find((f) => f.name === 'app-7.yaml')?.text).toContain('\nmode: block\n');
  });
});
