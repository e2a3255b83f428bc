import { describe, expect, it } from 'vitest';
import type { ChangeResult } from '../../../src/audit/change-result.js';
import { auditEntry } from '../../../src/audit/entry.js';
import type { DeleteIp, CreateIp, AdoptIp } from '../../../src/model/ip-change.js';
import type { DesiredIpEntry } from '../../../src/model/ip.js';

const where = { file: 'policies/shop.yaml', line: 34, col: 13, name: 'ip_lists.deny[0].ips[0]' };
const attributes = { client: 1, list: 'black', ruleType: 'ip_range', pools: [7], expiresAt: 33223139044 } as const;
const entries = (values: string[]): DesiredIpEntry[] => values.map((value) => ({ ...attributes, value, source: where }));

describe('auditEntry', () => {
  it('an IP create lists its first 20 values and says how many in all; the ids the answer gave', () => {
    const values = Array.from({ length: 25 }, (_, i) => `10.0.0.${i}/32`);
    const change: CreateIp = { action: 'create', kind: 'ip', ...attributes, force: false, entries: entries(values) };
    const result: ChangeResult = { index: 3, change, status: 'applied', ids: [41, 42], cause: 'drift' };
    expect(auditEntry(result, { revision: 'abc' })).toEqual({
      action: 'create', kind: 'ip', client: 1, application: 7, ...where,
      values: values.slice(0, 20), ids: [41, 42], count: 25, revision: 'abc', cause: 'drift', status: 'applied',
    });
  });

  it('an IP delete lists the ids it removes, no file; an unknown cause stays unknown', () => {
    const held = (id: number) => ({ id, reason: 'not-declared' as const, entries: [{ ...attributes, value: `10.0.0.${id}/32`, id, objectSize: 1 }], moved: [], size: 1 });
    const change: DeleteIp = { action: 'delete', kind: 'ip', client: 1, objects: [held(5), held(6)] };
    expect(auditEntry({ index: 0, change, status: 'already-done' }, {})).toEqual({
      action: 'delete', kind: 'ip', client: 1, application: 7, ids: [5, 6], cause: 'unknown', status: 'already-done',
    });
  });

  it('an IP adoption names its values, the unmanaged objects they come from and the fields that change', () => {
    const change: AdoptIp = { action: 'adopt', kind: 'ip', ...attributes, from: [9], fields: ['expires'], entries: entries(['198.51.100.7/32']) };
    expect(auditEntry({ index: 1, change, status: 'applied', cause: 'intent' }, {})).toMatchObject({
      action: 'adopt', values: ['198.51.100.7/32'], ids: [9], fields: ['expires'], cause: 'intent',
    });
  });
});
