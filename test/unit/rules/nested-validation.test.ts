/**
 * Nested values are checked down to the nested key: each problem is one
 * diagnostic at the file:line:col of that key (or of the object missing one),
 * and nothing is compiled from the file.
 */
import { describe, expect, it } from 'vitest';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

/** A policy with one rule whose lines start at line 5 (`- name: r` is line 5, col 5). */
function policy(rule: string): string {
  return `version: 1\nclient: 10042\napplication: 7\nrules:\n  - name: r\n${rule.replace(/^/gm, '    ')}\n`;
}

const CONTROL = 'type: forced_browsing\nthreshold: { count: 20, period: 60 }\n';
/** A control that watches parameters: it needs `enumerated_parameters`. */
const WATCHING = 'type: brute\nthreshold: { count: 20, period: 60 }\n';

interface Case {
  readonly what: string;
  readonly rule: string;
  readonly code: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    what: 'a block control with graylist_by_ip',
    rule: `${CONTROL}mode: block\nreaction:\n  block_by_ip: 1h\n  graylist_by_ip: 1h`,
    code: 'not-allowed-by-mode', line: 11, col: 7,
    message: '"graylist_by_ip" is not allowed in reaction when mode is block: block takes block_by_session or block_by_ip',
  },
  {
    what: 'a threshold count of 0',
    rule: 'type: rate_limit_enum\nmode: block\nthreshold:\n  count: 0\n  period: 60\nreaction: { block_by_ip: 1h }',
    code: 'invalid-value', line: 9, col: 14, message: 'rules[0].threshold.count must be at least 1, got 0',
  },
  {
    what: 'a reaction of 60 seconds',
    rule: `${CONTROL}mode: block\nreaction: { block_by_session: 60 }`,
    code: 'duration-range', line: 9, col: 35, message: 'must be between 600 s (10m) and 315569520 s, got 60',
  },
  {
    what: 'exact mode with name_regexps',
    rule: `${WATCHING}mode: block\nreaction: { block_by_ip: 10m }\nenumerated_parameters:\n  mode: exact\n  points: [{ point: [[get, user]] }]\n  name_regexps: [user]`,
    code: 'not-allowed', line: 13, col: 7, message: '"name_regexps" is not allowed in rules[0].enumerated_parameters with mode exact',
  },
  {
    what: 'regexp mode without value_regexps',
    rule: `${WATCHING}mode: block\nreaction: { block_by_ip: 10m }\nenumerated_parameters:\n  mode: regexp\n  name_regexps: [user]`,
    code: 'missing-key', line: 11, col: 7, message: 'missing required key "value_regexps" in rules[0].enumerated_parameters',
  },
  {
    what: 'a brute control without enumerated_parameters (the service refuses it)',
    rule: `${WATCHING}mode: block\nreaction: { block_by_ip: 10m }`,
    code: 'missing-key', line: 5, col: 5, message: 'missing required key "enumerated_parameters" in rules[0]',
  },
  {
    what: 'a name_regexps entry that does not compile',
    rule: `${WATCHING}mode: monitoring\nreaction: { graylist_by_ip: 1d }\nenumerated_parameters:\n  mode: regexp\n  name_regexps: ['', '(user']\n  value_regexps: ['']`,
    code: 'invalid-regex', line: 12, col: 26, message: 'regex does not compile',
  },
  {
    what: 'an unknown advanced_conditions field',
    rule: `${CONTROL}mode: monitoring\nreaction: { graylist_by_ip: 1d }\nadvanced_conditions:\n  - { field: referer, operator: eq, value: [x] }`,
    code: 'invalid-value', line: 11, col: 18, message: 'rules[0].advanced_conditions[0].field must be one of ip, method',
  },
  {
    what: 'a graphql max_depth of 0',
    rule: 'type: graphql_detection\nmode: block\nmax_depth: 0',
    code: 'invalid-value', line: 8, col: 16, message: 'rules[0].max_depth must be at least 1, got 0',
  },
];

describe('nested values are checked at the nested key', () => {
  for (const c of CASES) {
    it(c.what, () => {
      const result = loadPolicyTexts([{ file: 'abuse.yaml', text: policy(c.rule) }]);
      expect(result.desired).toBeUndefined();
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ file: 'abuse.yaml', line: c.line, col: c.col, code: c.code });
      expect(errors[0]?.message).toContain(c.message);
    });
  }

  it('accepts durations as seconds or with a unit, and reads them as seconds', () => {
    const result = loadPolicyTexts([{ file: 'abuse.yaml', text: policy(`${CONTROL}mode: block\nreaction: { block_by_session: 600, block_by_ip: 7d }`) }]);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.rules[0]?.fields).toMatchObject({ reaction: { block_by_session: 600, block_by_ip: 604_800 } });
  });

  it('checks a point inside a nested value like a rule\'s point', () => {
    const result = loadPolicyTexts([{
      file: 'abuse.yaml',
      text: policy(`${WATCHING}mode: block\nreaction: { block_by_ip: 1h }\nenumerated_parameters:\n  mode: exact\n  points:\n    - { point: [[post], [jsn_doc]] }`),
    }]);
    expect(result.diagnostics).toMatchObject([{ line: 13, col: 30, code: 'unknown-point', message: expect.stringContaining('unknown point element "jsn_doc"') as unknown }]);
  });
});
