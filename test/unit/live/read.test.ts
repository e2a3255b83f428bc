/**
 * readLiveState over a scripted listing: offset paging of a listing ordered by
 * `updated_at` can show one object on two pages (it was touched between the
 * page calls), and a misbehaving API can send records of the wrong shape.
 */
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../helpers/fake-api.js';
import type { ApiHint, ApiIpRule } from '../../../src/api/records.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT } from '../../../src/api/service.js';
import { readLiveState } from '../../../src/live/read.js';
import { buildPlan } from '../../../src/plan/plan.js';
import { loadPolicyTexts } from '../../../src/policy/index.js';

const CLIENT = 10042;


const foreignHint = (id: number): ApiHint => ({
  id, clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['header', `H${id}`],
  action: [{ point: ['instance'], type: 'equal', value: '99' }],
});

const ownedHint: ApiHint = {
  id: 5, clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'],
  action: [{ point: ['instance'], type: 'equal', value: '7' }], comment: '[managed-by:rampart]',
};

const ownedIp = (id: number, subnet: string): ApiIpRule => ({
  id, clientid: CLIENT, list: 'black', rule_type: 'ip_range', subnet, pools: [7], expired_at: 33223139044, reason: '[managed-by:rampart]',
});

const policy = `version: 1
client: ${CLIENT}
application: 7
rules:
  - { name: host, type: vpatch, attack: any, point: [[header, HOST]] }
ip_lists:
  deny:
    - ips: [198.51.100.7]
`;

describe('readLiveState', () => {
  it('lists an object seen on two pages once, so the plan never deletes the rule it keeps', async () => {
    // Page 1: the owned rule, then 999 foreign ones; page 2: the owned rule again (its updated_at moved).
    const hints = [ownedHint, ...Array.from({ length: HINT_PAGE_LIMIT - 1 }, (_, i) => foreignHint(1000 + i)), ownedHint];
    const black = [ownedIp(7, '198.51.100.7/32'), ...Array.from({ length: IP_RULE_PAGE_LIMIT - 1 }, (_, i) => ({
      ...ownedIp(5000 + i, `10.1.${Math.floor(i / 200)}.${i % 200}/32`), reason: 'console',
    })), ownedIp(7, '198.51.100.7/32')];
    const live = await readLiveState(fakeApi(hints, { black }), [CLIENT]);
    expect(live.rules.filter((rule) => rule.id === 5)).toHaveLength(1);
    expect(live.ipEntries.filter((entry) => entry.id === 7)).toHaveLength(1);

    const { desired } = loadPolicyTexts([{ file: 'p.yaml', text: policy }]);
    expect(desired).toBeDefined();
    const plan = buildPlan(desired!, live);
    expect(plan.changes).toEqual([]);
  });

});
