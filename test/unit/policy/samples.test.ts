/** The sample policies in policies/ validate clean and cover every kind. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicies } from '../../../src/policy/index.js';

describe('sample policies', () => {
  it('validate with no error and no warning, covering every rule and IP kind', async () => {
    const result = await loadPolicies(join(import.meta.dirname, '../../../policies'));
    expect(result.diagnostics).toEqual([]);
    expect(result.files.length).toBeGreaterThanOrEqual(3);
    const desired = result.desired;
    expect(desired?.clients).toEqual([10042]);
    expect(new Set(desired?.rules.map((r) => r.kind))).toEqual(new Set(['vpatch', 'regex', 'mode', 'disable_attack_type', 'masking', 'rate_limit', 'brute', 'bola']));
    const kinds = new Set(desired?.ipEntries.map((e) => `${e.list}:${e.ruleType}`));
    for (const kind of ['black:ip_range', 'black:country', 'black:proxy_type', 'black:datacenter', 'white:ip_range', 'gray:proxy_type']) {
      expect(kinds).toContain(kind);
    }
    expect(desired?.ipEntries.some((e) => e.value.includes(':'))).toBe(true);
    expect(desired?.ipEntries.some((e) => e.pools[0] === 0)).toBe(true);
  });
});
