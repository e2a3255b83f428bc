/**
 * `ignore_regex` by `regex_rule`: the name of a regex rule in the same file,
 * resolved to the regex_id the service gave it, created after it in the same
 * apply, and pointed at the new regex when the regex is replaced.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { policyDir, yaml, type PolicyDir } from '../../helpers/policies.js';
import { CLIENT, CREATE_HINT, DELETE_HINT, parseJson, startHarness, type Harness } from './harness.js';

const policy = (attack: string) => yaml`
  version: 1
  client: ${CLIENT}
  application: 7
  rules:
    - name: curltool-scanner
      type: regex
      regex: ".*curltool.*"
      attack: ${attack}
      point: [[header, USER-AGENT]]
    - name: health-checks-use-curltool
      type: ignore_regex
      regex_rule: curltool-scanner
      point: [[header, USER-AGENT]]
      when:
        - { point: [uri], equal: /healthz }
`;

describe('ignore_regex by regex_rule', () => {
  let harness: Harness;
  let policies: PolicyDir;
  beforeEach(async () => {
    harness = await startHarness();
    policies = await policyDir({ 'tuning.yaml': policy('scanner') });
  });
  afterEach(async () => {
    await harness.close();
    await policies.cleanup();
  });

  const regexOf = () => harness.hints().find((h) => h.type === 'regex');
  const ignoreOf = () => harness.hints().find((h) => h.type === 'disable_regex');

  it('points at the regex created in the same apply, rests, and follows the regex when it is replaced', async () => {
    const first = await harness.cli('apply', policies.dir, ['--settle-timeout', '3s']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(ignoreOf()?.regex_id).toBe(regexOf()?.regex_id);
    expect((await harness.cli('plan', policies.dir, ['--detailed-exitcode'])).code).toBe(0);

    // What the regex reports cannot change in place: a new regex, and the ignore rule follows it.
    await policies.write('tuning.yaml', policy('sqli'));
    const planned = parseJson<{ changes: { action: string; rule?: { type: string } }[] }>(await harness.cli('plan', policies.dir, ['--format', 'json']));
    expect(planned.changes.map((c) => `${c.action} ${c.rule?.type ?? ''}`)).toEqual(['create regex', 'create ignore_regex', 'delete regex', 'delete ignore_regex']);
    harness.emulator.control.resetCalls();
    const replaced = await harness.cli('apply', policies.dir, ['--settle-timeout', '3s']);
    expect(replaced.code, replaced.stdout + replaced.stderr).toBe(0);
    expect(harness.writes().map((w) => w.route)).toEqual([CREATE_HINT, CREATE_HINT, DELETE_HINT]);
    expect(harness.hints().filter((h) => h.type === 'regex' || h.type === 'disable_regex')).toHaveLength(2);
    expect(regexOf()?.attack_type).toBe('sqli');
    expect(ignoreOf()?.regex_id).toBe(regexOf()?.regex_id);
    expect((await harness.cli('plan', policies.dir, ['--detailed-exitcode'])).code).toBe(0);
  });

  it('names a missing regex rule at file:line:col', async () => {
    await policies.write('tuning.yaml', policy('scanner').replace('regex_rule: curltool-scanner', 'regex_rule: curltool-scaner'));
    const result = await harness.cli('plan', policies.dir);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/tuning\.yaml:\d+:\d+: error: regex_rule "curltool-scaner" names no regex rule of this file; did you mean "curltool-scanner"\? \[unknown-regex-rule\]/);
  });
});
