/**
 * Listed records of the wrong shape (a misbehaving API) fail the read with an
 * ApiProtocolError: never a TypeError, never a plan from what could not be read.
 */
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../helpers/fake-api.js';
import type { ApiHint, ApiIpRule } from '../../../src/api/records.js';
import { ApiProtocolError } from '../../../src/errors.js';
import { readLiveState } from '../../../src/live/read.js';

const CLIENT = 10042;


const ownedHint: ApiHint = {
  id: 5, clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'],
  action: [{ point: ['instance'], type: 'equal', value: '7' }], comment: '[managed-by:rampart]',
};

const ownedIp = (id: number, subnet: string): ApiIpRule => ({
  id, clientid: CLIENT, list: 'black', rule_type: 'ip_range', subnet, pools: [7], expired_at: 33223139044, reason: '[managed-by:rampart]',
});

describe('readLiveState with malformed records', () => {
  it.each<[string, unknown[], Partial<Record<string, unknown[]>>]>([
    ['a null hint', [null], {}],
    ['a hint whose action is not a list', [{ ...ownedHint, action: { a: 1 } }], {}],
    ['a condition whose point is not a list', [{ ...ownedHint, action: [{ point: 'instance', type: 'equal', value: 7 }] }], {}],
    ['a hint without an id', [{ ...ownedHint, id: '5' }], {}],
    ['a null IP object', [], { black: [null] }],
    ['a subnet that is not a string', [], { black: [{ ...ownedIp(7, 'x'), subnet: 5 }] }],
    ['source values that are not strings', [], { black: [{ ...ownedIp(7, 'x'), rule_type: 'country', subnet: undefined, source_values: [1, 2] }] }],
    ['an expiry that is not a number', [], { black: [{ ...ownedIp(7, '198.51.100.7/32'), expired_at: 'soon' }] }],
    ['pools that are not numbers', [], { black: [{ ...ownedIp(7, '198.51.100.7/32'), pools: 'x' }] }],
  ])('rejects %s as a protocol error, not a crash', async (_name, hints, ips) => {
    await expect(readLiveState(fakeApi(hints, ips), [CLIENT])).rejects.toBeInstanceOf(ApiProtocolError);
  });

  it('accepts unmanaged rule types of any shape (they are never read further)', async () => {
    const odd = { id: 9, clientid: CLIENT, type: 'attack_rechecker', action: [{ point: 'weird' }], point: { any: 'thing' } };
    const live = await readLiveState(fakeApi([odd, ownedHint]), [CLIENT]);
    expect(live.rules.map((rule) => rule.id)).toEqual([5]);
  });
});
