/**
 * The values of one IP-list entry share its declared part: each holds its
 * value and where it is written, and reads the rest through its class. What
 * leaves the process (JSON) and what a write sends (`plainIpEntry`) must be
 * the plain entry, member for member and in the same order.
 */
import { describe, expect, it } from 'vitest';
import { plainIpEntry } from '../../../src/model/ip.js';
import { loadPolicyTexts } from '../../../src/policy/validate.js';

const text = [
  'version: 1', 'client: 7', 'application: [3, 2]', 'ip_lists:', '  deny:',
  '    - ips: [198.51.100.7, 203.0.113.0/24]', '      reason: scanners', '      expires: 2031-01-01T00:00:00Z',
  '    - countries: [kp]', '',
].join('\n');

describe('declared IP values', () => {
  const values = loadPolicyTexts([{ file: 'app.yaml', text }], { now: new Date('2030-01-01T00:00:00Z') }).desired?.ipEntries ?? [];

  it('hold the value alone and share the rest with the values of their entry', () => {
    const [first, second] = values.filter((v) => v.ruleType === 'ip_range');
    expect(Object.keys(first as object)).toEqual(['value']);
    expect(first?.pools).toBe(second?.pools);
    expect([first?.client, first?.list, first?.pools, first?.expiresAt, first?.reason]).toEqual([7, 'black', [2, 3], 1924992000, 'scanners']);
  });

  it('are their plain entry in JSON, member for member and in order, with where each is written', () => {
    const json = JSON.parse(JSON.stringify(values)) as object[];
    expect(json).toEqual([
      { client: 7, list: 'black', ruleType: 'country', value: 'KP', pools: [2, 3], expiresAt: 33223139044, source: { file: 'app.yaml', line: 9, col: 19, name: 'ip_lists.deny[1].countries[0]' } },
      { client: 7, list: 'black', ruleType: 'ip_range', value: '198.51.100.7/32', pools: [2, 3], expiresAt: 1924992000, reason: 'scanners', source: { file: 'app.yaml', line: 6, col: 13, name: 'ip_lists.deny[0].ips[0]' } },
      { client: 7, list: 'black', ruleType: 'ip_range', value: '203.0.113.0/24', pools: [2, 3], expiresAt: 1924992000, reason: 'scanners', source: { file: 'app.yaml', line: 6, col: 27, name: 'ip_lists.deny[0].ips[1]' } },
    ]);
    expect(json.map((entry) => Object.keys(entry))[1]).toEqual(['client', 'list', 'ruleType', 'value', 'pools', 'expiresAt', 'reason', 'source']);
  });

  it('spread as their plain entry', () => {
    const value = values.find((v) => v.value === '203.0.113.0/24');
    expect({ ...plainIpEntry(value as never) }).toEqual({ client: 7, list: 'black', ruleType: 'ip_range', value: '203.0.113.0/24', pools: [2, 3], expiresAt: 1924992000, reason: 'scanners' });
  });
});
