/**
 * Fidelity: the service stores some fields differently from what was sent (the
 * documented HOST rewrite, and rewrites nobody documented, which the
 * emulator's `undocumentedRewrites` quirk plays). Applies in a row, each a new
 * process, must write once and then never again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { policyDir, yaml, type PolicyDir } from '../../helpers/policies.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { CLIENT, expectNoDuplicates, parseJson, startHarness, type Harness } from './harness.js';

const POLICY = yaml`
  version: 1
  client: ${CLIENT}
  application: 7
  rules:
    - name: shop-host-only
      type: vpatch
      attack: any
      point: [[get, debug]]
      when:
        - { point: [header, HOST], equal: Shop.Example.com }
    - name: no-lowercase-get
      type: vpatch
      attack: sqli
      point: [[get, q]]
      when:
        - { point: [method], equal: get }
  ip_lists:
    deny:
      - ips: [203.0.113.9]
        reason: scanner
        expires: 2031-01-31T10:20:30Z
`;

interface ApplyJson {
  summary: { applied: number; rewritten: number };
  results: { rewrites?: { field: string; declared: string; stored: string }[] }[];
}

describe('an account whose service rewrites what it stores', () => {
  let harness: Harness;
  let policies: PolicyDir;
  beforeEach(async () => {
    policies = await policyDir({ 'shop.yaml': POLICY });
    harness = await startHarness({ undocumentedRewrites: true });
  });
  afterEach(async () => {
    await harness.close();
    await policies.cleanup();
  });

  it('validate warns at file:line:col that HOST equal is stored as iequal', async () => {
    const result = await runCliInProcess(['validate', '--policies', 'policies'], { cwd: policies.root });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'policies/shop.yaml:10:41: warning: the service stores "equal" on [header, HOST] as "iequal" (host names are case-insensitive); ' +
      'write iequal: "shop.example.com" to say what is stored [host-equal]');
  });

  for (const journal of [false, true]) {
    it(`three applies in a row, each a new process${journal ? ', with --journal' : ''}: the second and third write nothing`, async () => {
      const journalArgs = journal ? ['--journal', policies.scratch('journal.jsonl')] : [];
      const first = await harness.cli('apply', policies.dir, ['--format', 'json', ...journalArgs]);
      expect(first.code, first.stderr).toBe(0);
      const report = parseJson<ApplyJson>(first);
      expect(report.summary).toMatchObject({ applied: 3, rewritten: 2 });
      // Each undocumented rewrite is named once, field by field; the HOST rewrite is known, so it is no rewrite.
      const rewrites = report.results.flatMap((r) => r.rewrites ?? []);
      expect(rewrites).toEqual([
        { field: 'when', declared: '[method] equal "get"', stored: '[method] equal "GET"' },
        { field: 'expires', declared: '2031-01-31T10:20:30Z', stored: '2031-01-31T10:20:00Z' },
      ]);
      expect(first.stderr).toContain('the service stored a field differently than declared');
      const stored = harness.hints().find((h) => h.action.some((c) => c.point[0] === 'header'));
      expect(stored?.action).toContainEqual({ point: ['header', 'HOST'], type: 'iequal', value: 'shop.example.com' });
      expect(harness.hints().every((h) => h.variativity_disabled === true)).toBe(true);

      harness.emulator.control.resetCalls();
      for (const run of [2, 3]) {
        const again = await harness.cli('apply', policies.dir, journalArgs);
        expect(again.code, `apply #${run}: ${again.stderr}`).toBe(0);
        expect(harness.writes(), `apply #${run} wrote`).toEqual([]);
      }
      expect(expectNoDuplicates(harness)).toEqual({ rules: 2, ipValues: 1 });

      // The plan says why nothing changes: the marks name the declarations.
      const plan = parseJson<{ summary: { unchanged: number }; changes: unknown[]; notes: { message: string; line: number }[] }>(
        await harness.cli('plan', policies.dir, ['--format', 'json']));
      expect(plan.changes).toEqual([]);
      expect(plan.summary.unchanged).toBe(3);
      expect(plan.notes.map((n) => n.message)).toEqual([
        expect.stringContaining('when: [method] equal "get" → [method] equal "GET"'),
        expect.stringContaining('expires: 2031-01-31T10:20:30Z → 2031-01-31T10:20:00Z'),
      ]);
    });
  }

  it('a declared change is still a change: it replaces the object once, then rests', async () => {
    expect((await harness.cli('apply', policies.dir)).code).toBe(0);
    await policies.edit('shop.yaml', 'equal: get', 'equal: head');
    harness.emulator.control.resetCalls();
    const changed = await harness.cli('apply', policies.dir);
    expect(changed.code, changed.stderr).toBe(0);
    expect(harness.writes().map((w) => w.route)).toEqual(['POST /v1/objects/hint/create', 'POST /v1/objects/hint/delete']);
    harness.emulator.control.resetCalls();
    expect((await harness.cli('apply', policies.dir)).code).toBe(0);
    expect(harness.writes()).toEqual([]);
    expect(harness.hints().filter((h) => h.action.some((c) => c.point[0] === 'method')).map((h) => h.action.find((c) => c.point[0] === 'method')?.value)).toEqual(['HEAD']);
  });

  it('never touches or counts the service\'s system rules, and still knows marks without a fingerprint', async () => {
    const system = harness.emulator.control.seedHint({ clientid: CLIENT, type: 'service_mode', mode: 'monitoring', system: true, action: [] });
    // Made by an earlier Rampart, before marks carried a fingerprint: equal to a declaration, so it is that declaration.
    const legacy = harness.emulator.control.seedHint({
      clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['get', 'debug'], comment: '[managed-by:rampart]',
      action: [{ point: ['instance'], type: 'equal', value: '7' }, { point: ['header', 'HOST'], type: 'iequal', value: 'shop.example.com' }],
    });
    const plan = parseJson<{ summary: { create: number; delete: number; unchanged: number }; safety: { owned_count: number } }>(
      await harness.cli('plan', policies.dir, ['--format', 'json']));
    expect(plan.summary).toMatchObject({ create: 2, delete: 0, unchanged: 1 });
    expect(plan.safety.owned_count).toBe(1);
    expect((await harness.cli('apply', policies.dir)).code).toBe(0);
    const ids = harness.hints().map((h) => h.id);
    expect(ids).toContain(system.id);
    expect(ids).toContain(legacy.id);
  });
});
