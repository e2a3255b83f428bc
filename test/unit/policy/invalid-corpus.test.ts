/**
 * One table over the invalid corpus (test/fixtures/policies/invalid): each
 * file has one known problem, reported with a stable code, a message and the
 * exact line and column of the offending node.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyTexts } from '../../../src/policy/index.js';

const DIR = join(import.meta.dirname, '../../fixtures/policies/invalid');
const NOW = new Date('2026-01-01T00:00:00Z');

interface Case {
  file: string;
  code: string;
  line: number;
  col: number;
  message: string;
  severity?: 'error' | 'warning';
}

const CASES: Case[] = [
  { file: 'yaml-syntax.yaml', code: 'yaml-syntax', line: 5, col: 1, message: 'Missing closing "quote' },
  { file: 'duplicate-key.yaml', code: 'duplicate-key', line: 4, col: 1, message: 'duplicate key' },
  { file: 'multiple-documents.yaml', code: 'multiple-documents', line: 4, col: 1, message: 'one YAML document' },
  { file: 'unknown-key-top.yaml', code: 'unknown-key', line: 4, col: 1, message: 'unknown key "rulez" at the top level; did you mean "rules"?' },
  { file: 'unknown-key-rule.yaml', code: 'unknown-key', line: 7, col: 5, message: 'unknown key "regx" in rules[0]; did you mean "regex"?' },
  { file: 'unknown-key-proto.yaml', code: 'unknown-key', line: 4, col: 1, message: 'unknown key "__proto__"' },
  { file: 'missing-key.yaml', code: 'missing-key', line: 1, col: 1, message: 'missing required key "client"' },
  { file: 'missing-attack.yaml', code: 'missing-key', line: 5, col: 5, message: 'missing required key "attack" in rules[0] (rule "r")' },
  { file: 'invalid-id-client.yaml', code: 'invalid-id', line: 2, col: 9, message: 'client must be a positive integer (the account id), got -5' },
  { file: 'invalid-id-application.yaml', code: 'invalid-id', line: 3, col: 14, message: 'application must be a positive integer application id' },
  { file: 'invalid-id-application-list.yaml', code: 'invalid-id', line: 3, col: 14, message: 'a list of distinct ids' },
  { file: 'wrong-version.yaml', code: 'invalid-value', line: 1, col: 10, message: 'version must be 1, got 2' },
  { file: 'wrong-type-rules.yaml', code: 'wrong-type', line: 5, col: 3, message: 'rules must be a list, got a mapping' },
  { file: 'wrong-type-rule.yaml', code: 'wrong-type', line: 5, col: 5, message: 'rules[0] must be a mapping, got "block-admin"' },
  { file: 'wrong-type-condition-value.yaml', code: 'wrong-type', line: 9, col: 35, message: 'rules[0].when[0].equal must be a string, got 7 (quote it)' },
  { file: 'invalid-mode.yaml', code: 'invalid-value', line: 4, col: 7, message: 'mode must be one of default, off, monitoring, safe_blocking, block, got "blocking"' },
  { file: 'not-allowed.yaml', code: 'not-allowed', line: 8, col: 5, message: '"point" is not allowed in a mode rule' },
  { file: 'empty-comment.yaml', code: 'invalid-value', line: 8, col: 14, message: 'rules[0].comment must not be empty' },
  { file: 'duplicate-rule-name.yaml', code: 'duplicate-rule-name', line: 8, col: 11, message: 'rule name "r" is already used in this file (line 5)' },
  { file: 'duplicate-rule.yaml', code: 'duplicate-rule', line: 9, col: 5, message: 'rule "second" declares the same rule as "first" at duplicate-rule.yaml:5:5' },
  { file: 'scope-conflict.yaml', code: 'scope-conflict', line: 6, col: 5, message: '(mode block here, monitoring there); the service keeps one per scope' },
  { file: 'ip-conflict.yaml', code: 'ip-conflict', line: 8, col: 13, message: '198.51.100.7/32 is in the allow list here and in the deny list at ip-conflict.yaml:6:13 for application 7' },
  { file: 'ip-duplicate.yaml', code: 'ip-duplicate', line: 6, col: 27, message: 'listed twice in the deny list, first at ip-duplicate.yaml:6:13' },
  { file: 'subnet-overlap.yaml', code: 'subnet-overlap', line: 7, col: 13, message: '203.0.113.64/26 lies inside 203.0.113.0/24', severity: 'warning' },
  { file: 'invalid-cidr.yaml', code: 'invalid-cidr', line: 6, col: 13, message: '"300.1.1.1" is not an IPv4/IPv6 address or CIDR subnet' },
  { file: 'invalid-cidr-prefix.yaml', code: 'invalid-cidr', line: 6, col: 13, message: '"10.0.0.0/33"' },
  { file: 'host-bits.yaml', code: 'host-bits', line: 6, col: 13, message: 'it is read as 192.0.2.0/24', severity: 'warning' },
  { file: 'prefix-too-wide.yaml', code: 'prefix-too-wide', line: 6, col: 13, message: 'wider than /12' },
  { file: 'prefix-too-wide-ipv6.yaml', code: 'prefix-too-wide', line: 6, col: 13, message: 'wider than /32' },
  { file: 'unknown-country.yaml', code: 'unknown-country', line: 6, col: 23, message: 'did you mean "GB" (United Kingdom)?' },
  { file: 'unknown-country-name.yaml', code: 'unknown-country', line: 6, col: 19, message: 'did you mean "DE" (Germany)?' },
  { file: 'unknown-proxy.yaml', code: 'unknown-proxy', line: 6, col: 17, message: 'unknown proxy type "TORR": one of VPN, SES, PUB, WEB, TOR, DCH, MIP; did you mean "TOR"?' },
  { file: 'unknown-datacenter.yaml', code: 'unknown-datacenter', line: 6, col: 21, message: 'did you mean "hetzner"?' },
  { file: 'invalid-regex.yaml', code: 'invalid-regex', line: 8, col: 12, message: 'regex does not compile (JavaScript RegExp approximating the service\'s PCRE): Unterminated group' },
  { file: 'invalid-regex-condition.yaml', code: 'invalid-regex', line: 9, col: 36, message: 'Range out of order' },
  { file: 'invalid-expiry.yaml', code: 'invalid-expiry', line: 7, col: 16, message: 'not a real calendar date' },
  { file: 'invalid-expiry-format.yaml', code: 'invalid-expiry', line: 7, col: 16, message: 'is not RFC 3339' },
  { file: 'expired.yaml', code: 'expired', line: 7, col: 16, message: 'this entry will not be created', severity: 'warning' },
  { file: 'unknown-point.yaml', code: 'unknown-point', line: 9, col: 19, message: 'unknown condition point "hedaer"; did you mean "header"?' },
  { file: 'unknown-point-element.yaml', code: 'unknown-point', line: 7, col: 14, message: 'unknown point element "jsn_doc"; did you mean "json_doc"?' },
  { file: 'point-argument-index.yaml', code: 'point-argument', line: 9, col: 25, message: 'must be a non-negative integer, got -1' },
  { file: 'point-argument-missing.yaml', code: 'point-argument', line: 7, col: 13, message: 'point "header" needs an argument' },
  { file: 'point-argument-extra.yaml', code: 'point-argument', line: 9, col: 27, message: 'point "method" takes no argument' },
  { file: 'point-argument-header.yaml', code: 'point-argument', line: 7, col: 22, message: '"X Bad" is not a valid header name' },
  { file: 'uri-with-path.yaml', code: 'uri-with-path', line: 10, col: 9, message: 'cannot combine a [uri] condition with [path, N]' },
  { file: 'condition-operator.yaml', code: 'condition-operator', line: 9, col: 9, message: '(found: equal, regex)' },
  { file: 'condition-operator-none.yaml', code: 'condition-operator', line: 9, col: 9, message: '(found: none)' },
  { file: 'too-many-conditions.yaml', code: 'too-many-conditions', line: 8, col: 5, message: 'has 61 conditions (counting the application\'s instance condition)' },
  { file: 'instance-condition.yaml', code: 'instance-condition', line: 9, col: 18, message: 'comes from "application"' },
  { file: 'duplicate-condition.yaml', code: 'duplicate-condition', line: 10, col: 9, message: 'already written at when[0]' },
  { file: 'entry-kind.yaml', code: 'entry-kind', line: 6, col: 7, message: '(found: ips, countries)' },
  { file: 'reserved-mark.yaml', code: 'reserved-mark', line: 7, col: 15, message: 'must not contain "[managed-by:"' },
  { file: 'alias-bomb.yaml', code: 'yaml-alias-limit', line: 7, col: 13, message: 'more than 100 alias references' },
  { file: 'empty-file.yaml', code: 'empty-file', line: 1, col: 1, message: 'holds no policy', severity: 'warning' },
];

describe('invalid policy corpus', () => {
  it('has a case for every fixture and a fixture for every case', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();
    expect(CASES.map((c) => c.file).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('$file → $code at $line:$col', (c) => {
    const text = readFileSync(join(DIR, c.file), 'utf8');
    const { diagnostics, desired } = loadPolicyTexts([{ file: c.file, text }], { now: NOW });
    // Each fixture holds exactly one problem; anything more is noise a user would see.
    expect(diagnostics).toHaveLength(1);
    const [d] = diagnostics;
    expect(d).toMatchObject({ file: c.file, code: c.code, line: c.line, col: c.col, severity: c.severity ?? 'error' });
    expect(d?.message).toContain(c.message);
    if ((c.severity ?? 'error') === 'error') expect(desired).toBeUndefined();
    else expect(desired).toBeDefined();
  });
});
