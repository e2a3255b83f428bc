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
