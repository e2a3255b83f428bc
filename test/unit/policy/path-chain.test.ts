/**
 * The `path-chain` warning: a chain of `[path, i]` equals that no
 * `[path, n]`, `action_name` or `action_ext` closes matches paths below the
 * chain, not the chain itself. Its message is written when read, so its
 * plain form (JSON, the outputs) is checked here whole.
 */
import { describe, expect, it } from 'vitest';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

const NOW = { now: new Date('2030-01-01T00:00:00Z') };

function warningsOf(when: string): unknown[] {
  const text = `version: 1\nclient: 1\napplication: all\nrules:\n  - name: r\n    type: vpatch\n    attack: any\n    point: [[get, q]]\n    when:\n${when}`;
  const result = loadPolicyTexts([{ file: 'app.yaml', text }], NOW);
  return JSON.parse(JSON.stringify(result.diagnostics.filter((d) => d.code === 'path-chain'))) as unknown[];
}

describe('the path-chain warning', () => {
  it('names the chain, the URL it does not match and what to write, at the chain\'s last condition', () => {
    const warnings = warningsOf('      - { point: [path, 0], equal: api }\n      - { point: [path, 1], equal: login }\n');
    expect(warnings).toEqual([{
      file: 'app.yaml', line: 11, col: 9, severity: 'warning', code: 'path-chain',
      message: '[path, 1] equal "login" does not match /api/login: the service reads the last segment as action_name. ' +
        'For /api/login itself write url: /api/login; for everything under it, url: /api/login/** (which says so)',
    }]);
  });

  it('says the same each time it is read', () => {
    const text = 'version: 1\nclient: 1\napplication: all\nrules:\n  - { name: r, type: vpatch, attack: any, point: [[get, q]], when: [{ point: [path, 0], equal: login }] }\n';
    const [warning] = loadPolicyTexts([{ file: 'app.yaml', text }], NOW).diagnostics;
    expect(warning?.message).toBe(warning?.message);
    expect(warning?.message).toContain('[path, 0] equal "login" does not match /login');
    expect(Object.keys(JSON.parse(JSON.stringify(warning)) as object)).toEqual(['file', 'line', 'col', 'severity', 'code', 'message']);
  });

  it.each([
    ['a condition on the next segment', '      - { point: [path, 0], equal: api }\n      - { point: [path, 1], equal: login }\n      - { point: [path, 2], regex: "^v[0-9]+$" }\n'],
    ['action_name', '      - { point: [path, 0], equal: api }\n      - { point: [action_name], equal: login }\n'],
    ['action_ext', '      - { point: [path, 0], equal: api }\n      - { point: [action_ext], equal: json }\n'],
    ['a url: scope', '      - { url: /api/login }\n'],
  ])('is not said when %s closes the chain', (_, when) => {
    expect(warningsOf(when)).toEqual([]);
  });
});
