/**
 * One policy with every rule kind, through the real CLI against the emulator
 * with its duplicate-dropping quirk on: applied, then nothing to change;
 * updatable fields changed by updates only; a removed rule deleted; foreign,
 * system and unmanaged-type rules never touched.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { RuleKind } from '../../../src/rules/kind.js';
import { RULE_KINDS } from '../../../src/rules/registry.js';
import { otherValue } from '../../helpers/other-value.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';
import { CLIENT, CREATE_HINT, DELETE_HINT, parseJson, startHarness, UPDATE_HINT, type Harness } from './harness.js';
const kinds = RULE_KINDS as readonly RuleKind[];

/** The first example of every kind, named after it; `regex_id` pointed at a real regex rule. */
function policy(regexId: number, edit: (kind: RuleKind, rule: Record<string, unknown>) => Record<string, unknown> = (_k, r) => r): string {
  const rules = kinds.map((kind) => {
    const example = { ...(kind.examples[0] ?? {}) };
    if ('regex_id' in example) example.regex_id = regexId;
    return edit(kind, { name: `every-${kind.yaml}`, type: kind.yaml, ...example });
  });
  return stringify({ version: 1, client: CLIENT, application: 7, rules });
}

describe('a policy with every rule kind', () => {
  let harness: Harness;
  let policies: PolicyDir;
  beforeEach(async () => {
    harness = await startHarness({ dropScopeDuplicates: true });
    policies = await policyDir();
  });
  afterEach(async () => {
    await harness.close();
    await policies.cleanup();
  });

  it('applies, rests, updates in place, deletes what is removed, and touches nothing else', async () => {
    const { control } = harness.emulator;
    const instance7 = [{ point: ['instance'], type: 'equal', value: '7' }];
    const target = control.seedHint({ clientid: CLIENT, type: 'regex', regex: '.*target.*', attack_type: 'scanner', point: ['get', 'q'], regex_id: 77, action: instance7, comment: 'console' });
    const system = control.seedHint({ clientid: CLIENT, type: 'service_mode', mode: 'monitoring', system: true, action: [] });
    const counter = control.seedHint({ clientid: CLIENT, type: 'brute_counter', action: instance7 });
    const regexId = target.regex_id as number;
    await policies.write('every.yaml', policy(regexId));

    const validated = await harness.cli('plan', policies.dir, ['--format', 'json']);
    expect(validated.code, validated.stderr).toBe(0);
    expect(parseJson<{ summary: { create: number } }>(validated).summary.create).toBe(kinds.length);

    const applied = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const rest = await harness.cli('plan', policies.dir, ['--detailed-exitcode']);
    expect(rest.code, rest.stdout).toBe(0);

    // Every updatable field of every kind changed: updates only, one per rule that has one.
    const updatable = kinds.filter((kind) => kind.fields.some((field) => field.updatable));
    await policies.write('every.yaml', policy(regexId, (kind, rule) => {
      const field = kind.fields.find((f) => f.updatable);
      return field ? { ...rule, [field.name]: otherValue(field, rule[field.name] as never) } : rule;
    }));
    control.resetCalls();
    const updated = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s']);
    expect(updated.code, updated.stdout + updated.stderr).toBe(0);
    expect(harness.writes().map((w) => w.route)).toEqual(updatable.map(() => UPDATE_HINT));
    expect((await harness.cli('plan', policies.dir, ['--detailed-exitcode'])).code).toBe(0);

    // A rule removed from the file is deleted, in one call.
    const doc = parse(await policies.read('every.yaml')) as { rules: { name: string }[] };
    await policies.write('every.yaml', stringify({ ...doc, rules: doc.rules.filter((r) => r.name !== 'every-rate_limit') }));
    control.resetCalls();
    const removed = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(harness.writes().map((w) => w.route)).toEqual([DELETE_HINT]);

    const ids = harness.hints().map((h) => h.id);
    for (const untouched of [target, system, counter]) expect(ids).toContain(untouched.id);
    expect(control.calls().filter((c) => c.route === CREATE_HINT)).toEqual([]);
  });
});
