/**
 * Regexes from policies and the service run on values that whoever sends the
 * site a request chooses. Nested quantifiers against a 41-byte value (hours
 * for a backtracking engine) finish at once on the linear-time engine, in a
 * rule's regex, a scope's Host regex and a mode rule's scope; PCRE-only
 * syntax is reported not evaluable with why, never run by backtracking; and
 * a pass past `--timeout` stops between requests.
 */
import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../../src/api/deadline.js';
import { ApiTimeoutError } from '../../../src/errors.js';
import { linearRegex } from '../../../src/model/linear-regex.js';
import { hit, impactsOf } from '../../helpers/impact.js';

/** 40 letters and one that breaks the match: a backtracking engine tries 2^40 ways. */
const HOSTILE = `${'a'.repeat(40)}!`;

/** Milliseconds `work` takes. */
function timed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

describe('nested quantifiers on hostile recorded values', () => {
  it('a rule regex ^(a+)+$ is tried on a 41-byte value at once, and still matches what it should', () => {
    let impact;
    const ms = timed(() => {
      impact = impactsOf('', 'rules:\n  - { name: r, type: regex, regex: "^(a+)+$", attack: scanner, point: [[get, q]] }\n', [
        hit({ value: HOSTILE }), hit({ value: 'a'.repeat(41) }), hit({ value: HOSTILE.repeat(1000) }),
      ]).get('create regex r');
    });
    expect(impact).toMatchObject({ effect: 'newly_detected', requests: 1, evaluable: true });
    expect(ms).toBeLessThan(1000);
  });

  it('a scope\'s Host regex ^([a-z]+\\.?)+$ selects on a hostile host at once', () => {
    const patch = 'rules:\n  - { name: p, type: vpatch, attack: any, point: [[get, q]], when: [{ point: [header, HOST], regex: "^([a-z]+\\\\.?)+$" }] }\n';
    let impact;
    const ms = timed(() => {
      impact = impactsOf('', patch, [hit({ domain: HOSTILE }), hit({ domain: 'shop.example.com' })]).get('create vpatch p');
    });
    expect(impact).toMatchObject({ effect: 'newly_blocked', requests: 1, evaluable: true });
    expect(ms).toBeLessThan(1000);
  });

  it('a mode rule scoped by that regex governs what it matches, at once', () => {
    const scoped = (mode: string) => `mode: monitoring\nrules:\n  - { name: hosts, type: mode, mode: ${mode}, when: [{ point: [header, HOST], regex: "^([a-z]+\\\\.?)+$" }] }\n`;
    let impact;
    const ms = timed(() => {
      impact = impactsOf(scoped('monitoring'), scoped('block'), [hit({ domain: HOSTILE }), hit({ domain: 'shop.example.com' }), hit({ domain: 'shop.example.com' })])
        .get('update mode hosts');
    });
    expect(impact).toMatchObject({ effect: 'newly_blocked', requests: 2 });
    expect(ms).toBeLessThan(1000);
  });
});

describe('PCRE-only syntax', () => {
  it('a lookahead in a rule regex is not evaluable, saying why; it is never run', () => {
    const impact = impactsOf('', 'rules:\n  - { name: r, type: regex, regex: "^(?=a)(a+)+$", attack: scanner, point: [[get, q]] }\n', [hit({ value: HOSTILE })]).get('create regex r');
    expect(impact).toMatchObject({ effect: 'not_evaluable', evaluable: false });
    expect(impact?.reason).toMatch(/its regex cannot be tested on the recorded values: .*\(\?=.*no lookaround or backreferences/);
  });

  it('a backreference in a scope is not evaluable, naming the condition', () => {
    const patch = 'rules:\n  - { name: p, type: vpatch, attack: any, point: [[get, q]], when: [{ point: [header, HOST], regex: "^(a+)\\\\1$" }] }\n';
    const impact = impactsOf('', patch, [hit({ domain: HOSTILE })]).get('create vpatch p');
    expect(impact).toMatchObject({ effect: 'not_evaluable' });
    expect(impact?.reason).toMatch(/scope's regex on \["header","HOST"\] cannot be tested on the recorded values: invalid escape sequence/);
  });

  it('the service\'s (?i) and ordinary escapes compile as before, once per pattern', () => {
    const compiled = linearRegex('(?i)^SHOP\\.example\\.com$');
    expect(compiled.ok && compiled.regex.test('shop.EXAMPLE.com')).toBe(true);
    expect(linearRegex('(?i)^SHOP\\.example\\.com$')).toBe(compiled);
    expect(linearRegex('(?<=x)y')).toMatchObject({ ok: false });
  });
});

describe('--timeout', () => {
  it('stops the evaluation between requests once the deadline has passed, though no timer could run', async () => {
    const hits = Array.from({ length: 500 }, () => hit());
    const evaluation = withDeadline(20, 'https://api.example', async (signal) => {
      // Synchronous from here on: the deadline's timer cannot fire before the evaluation returns.
      const busyUntil = Date.now() + 40;
      while (Date.now() < busyUntil);
      return impactsOf('mode: monitoring\n', 'mode: block\n', hits, [], { signal });
    });
    await expect(evaluation).rejects.toThrow(ApiTimeoutError);
    await expect(evaluation).rejects.toThrow(/not done within 20ms \(--timeout\): the impact's evaluation of the recorded requests was still running/);
  });

  it('a pass within the deadline is not touched', async () => {
    const hits = Array.from({ length: 500 }, () => hit());
    const impacts = await withDeadline(60_000, 'https://api.example', async (signal) => impactsOf('mode: monitoring\n', 'mode: block\n', hits, [], { signal }));
    expect(impacts.get('update mode mode')).toMatchObject({ effect: 'newly_blocked', requests: 500 });
  });
});
