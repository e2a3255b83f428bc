/**
 * A file read on the clean path is parsed in full only when a position is
 * read: loading clean files must not pay for the full parse (1,000 files:
 * about half the load's time), yet every position stays the full parse's.
 */
import { describe, expect, it } from 'vitest';
import { policyText } from '../../../bench/validate.js';
import type { PolicyOptions } from '../../../src/policy/types.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

describe('positions of clean files', () => {
  it('are found by a full parse only when read', () => {
    // The full parse (yaml.ts) reads the alias limit on every file it parses; the clean path never does.
    let fullParses = 0;
    const options: PolicyOptions = {
      now: new Date('2030-01-01T00:00:00Z'),
      get maxAliasCount() {
        fullParses++;
        return undefined;
      },
    };
    const result = loadPolicyTexts([0, 1, 2].map((i) => ({ file: `app-${i}.yaml`, text: policyText(i) })), options);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.rules.length).toBeGreaterThan(0);
    expect(fullParses).toBe(0);

    const [first] = result.desired?.clientSources ?? [];
    expect({ ...first }).toEqual({ client: 10000, file: 'app-0.yaml', line: 3, col: 9 });
    expect(fullParses).toBe(1);
    expect(JSON.stringify(result.desired?.rules[0]?.source)).toMatch(/"line":\d+,"col":\d+/);
  });
});

describe('a deferred source', () => {
  const load = () => loadPolicyTexts([{ file: 'app-0.yaml', text: policyText(0) }], { now: new Date('2030-01-01T00:00:00Z') });

  it('compares and serializes as the plain source, its position included', () => {
    const source = load().desired!.rules[0]!.source;
    const plain = { file: source.file, line: source.line, col: source.col, name: source.name };
    expect(source.line).toBeGreaterThan(1);
    expect(source).toEqual(plain);
    expect(source).not.toEqual({ ...plain, line: plain.line + 1 });
    expect(source).not.toEqual({ ...plain, col: plain.col + 1 });
    expect(JSON.parse(JSON.stringify(source))).toEqual(plain);
    expect(Object.keys(JSON.parse(JSON.stringify(source)))).toEqual(['file', 'line', 'col', 'name']);
  });

  it('two loads compare by position: a declaration on another line is another source', () => {
    const text = policyText(0);
    const moved = text.replace('\nrules:\n', '\n# a comment line\nrules:\n');
    expect(moved).not.toBe(text);
    const at = (t: string) => loadPolicyTexts([{ file: 'app-0.yaml', text: t }], { now: new Date('2030-01-01T00:00:00Z') }).desired!.rules[0]!.source;
    expect(at(text)).toEqual(at(text));
    expect(at(moved)).not.toEqual(at(text));
  });
});
