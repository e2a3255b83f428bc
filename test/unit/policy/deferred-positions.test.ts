/**
 * A file read on the clean path finds its positions on the tape its one
 * js-yaml pass recorded (clean-yaml.ts, spots-tape.ts), and is never parsed
 * again, not even for a diagnostic; a file that pass declines is read once by
 * the full parse. Every position stays the full parse's.
 */
import { describe, expect, it } from 'vitest';
import { policyText } from '../../../bench/validate.js';
import type { PolicyOptions } from '../../../src/policy/types.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

describe('positions of clean files', () => {
  // The full parse (yaml.ts) reads the alias limit on every file it parses; the clean path never does.
  const counting = (): { options: PolicyOptions; fullParses: () => number } => {
    let fullParses = 0;
    return {
      options: {
        now: new Date('2030-01-01T00:00:00Z'),
        get maxAliasCount() {
          fullParses++;
          return undefined;
        },
      },
      fullParses: () => fullParses,
    };
  };

  it('are found without the full parse', () => {
    const { options, fullParses } = counting();
    const result = loadPolicyTexts([0, 1, 2].map((i) => ({ file: `app-${i}.yaml`, text: policyText(i) })), options);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.rules.length).toBeGreaterThan(0);
    const [first] = result.desired?.clientSources ?? [];
    expect({ ...first }).toEqual({ client: 10000, file: 'app-0.yaml', line: 3, col: 9 });
    expect(JSON.stringify(result.desired?.rules[0]?.source)).toMatch(/"line":\d+,"col":\d+/);
    expect(fullParses()).toBe(0);
  });

  it('are the one pass\'s for a clean file with a diagnostic: the file is not parsed again', () => {
    const { options, fullParses } = counting();
    const text = policyText(0).replace('    attack: scanner\n', '    attack: scanner\n    colour: red\n');
    const result = loadPolicyTexts([{ file: 'app-0.yaml', text }], options);
    expect(fullParses()).toBe(0);
    const line = text.split('\n').indexOf('    colour: red') + 1;
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.severity}`)).toEqual([`app-0.yaml:${line}:5: error`]);
  });

  it('come from the full parse, read once, where the one pass cannot tell them', () => {
    const { options, fullParses } = counting();
    // A byte-order mark: js-yaml drops it, so its offsets would be one off.
    const result = loadPolicyTexts([{ file: 'app-0.yaml', text: `\ufeff${policyText(0)}` }], options);
    expect(result.diagnostics).toEqual([]);
    expect(fullParses()).toBe(1);
    expect({ ...result.desired?.clientSources?.[0] }).toEqual({ client: 10000, file: 'app-0.yaml', line: 3, col: 9 });
    expect(fullParses()).toBe(1);
  });
});

describe('a declaration\'s source', () => {
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
