/**
 * Predicted listing sizes: the desired state's count never exceeds what a
 * converged account lists (an over-prediction would cost calls), the daemon's
 * memory of the last cycle covers foreign objects, and readLiveState requests
 * the predicted pages of every listing at once, at the minimum calls.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { ApiHint, ApiIpRule } from '../../../src/api/records.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, ServiceApi } from '../../../src/api/service.js';
import { listingKey, type ListingKey } from '../../../src/live/listing-key.js';
import { desiredListingSizes, expectedListingSizes, rememberListed } from '../../../src/live/listing-sizes.js';
import { minimumListingCalls } from '../../../src/live/paging.js';
import { readLiveState } from '../../../src/live/read.js';
import { loadPolicyTexts } from '../../../src/policy/index.js';

const CLIENT = 10042;

const policy = `version: 1
client: ${CLIENT}
application: 7
rules:
  - { name: a, type: vpatch, attack: any, point: [[header, HOST]] }
  - { name: b, type: vpatch, attack: any, point: [[header, X-B]] }
ip_lists:
  deny:
    - ips: [198.51.100.7, 198.51.100.8, 10.16.0.0/12]
    - countries: [DE, FR, IT]
    - countries: [ES]
      reason: other
  allow:
    - proxies: [TOR]
`;

function desired() {
  const { desired } = loadPolicyTexts([{ file: 'p.yaml', text: policy }]);
  if (!desired) throw new Error('invalid test policy');
  return desired;
}

describe('desiredListingSizes', () => {
  it('counts a rule and an address each, and a group of countries once (one request may list as one object)', () => {
    const sizes = desiredListingSizes(desired());
    expect(Object.fromEntries(sizes)).toEqual({
      [listingKey(CLIENT, 'rules')]: 2,
      [listingKey(CLIENT, 'black')]: 5,
      [listingKey(CLIENT, 'white')]: 1,
      [listingKey(CLIENT, 'gray')]: 0,
    });
  });
});

describe('the listing sizes the daemon remembers', () => {
  it('expects the larger of the desired count and what the last cycle listed', () => {
    const earlier = new Map([[listingKey(CLIENT, 'rules'), 10], [listingKey(CLIENT, 'gray'), 0]] as const);
    const last = rememberListed(earlier, new Map([[listingKey(CLIENT, 'rules'), 1500], [listingKey(CLIENT, 'black'), 1]] as const));
    expect(Object.fromEntries(last)).toEqual({ [listingKey(CLIENT, 'rules')]: 1500, [listingKey(CLIENT, 'black')]: 1, [listingKey(CLIENT, 'gray')]: 0 });
    const sizes = expectedListingSizes(desired(), last);
    expect(sizes.get(listingKey(CLIENT, 'rules'))).toBe(1500);
    expect(sizes.get(listingKey(CLIENT, 'black'))).toBe(5);
    expect(sizes.get(listingKey(CLIENT, 'gray'))).toBe(0);
  });
});

const hint = (id: number): ApiHint => ({
  id, clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['header', `H${id}`],
  action: [{ point: ['instance'], type: 'equal', value: '1' }],
});
const ip = (id: number): ApiIpRule => ({
  id, clientid: CLIENT, list: 'black', rule_type: 'ip_range', subnet: `10.${id >> 16 & 255}.${id >> 8 & 255}.${id & 255}/32`, pools: [0],
  expired_at: 33223139044, reason: 'console',
});

/** A ServiceApi over listings that answer after a few ms, recording each call's offset and the calls in flight. */
function slowApi(hints: ApiHint[], black: ApiIpRule[]) {
  const calls: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const http = {
    call: async (method: string, path: string, body?: { offset: number; limit: number }) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 3));
      inFlight--;
      if (path.includes('/credential_stuffing/')) {
        calls.push('credentials');
        return { default: [], custom: [] };
      }
      if (method === 'POST' && body) {
        calls.push(`rules@${body.offset}`);
        return hints.slice(body.offset, body.offset + body.limit);
      }
      const query = new URLSearchParams(path.split('?')[1] ?? '');
      const offset = Number(query.get('offset'));
      calls.push(`${query.get('filter[list]')}@${offset}`);
      return { objects: query.get('filter[list]') === 'black' ? black.slice(offset, offset + Number(query.get('limit'))) : [] };
    },
  };
  return { api: new ServiceApi(http as unknown as ApiClient), calls, mostInFlight: () => mostInFlight };
}

describe('readLiveState with expected sizes', () => {
  const hints = Array.from({ length: 2500 }, (_, i) => hint(i + 1));
  const black = Array.from({ length: 1000 }, (_, i) => ip(i + 1));
  // The two empty IP lists take a call each, and the credential-stuffing rules one.
  const minimum = minimumListingCalls(2500, HINT_PAGE_LIMIT) + minimumListingCalls(1000, IP_RULE_PAGE_LIMIT) + 2 + 1;

  it('requests the predicted pages at once, bounded, at the minimum calls, and reports each listing size', async () => {
    const { api, calls, mostInFlight } = slowApi(hints, black);
    const listed = new Map<ListingKey, number>();
    const expected = new Map([[listingKey(CLIENT, 'rules'), 2500], [listingKey(CLIENT, 'black'), 1000]] as const);
    const live = await readLiveState(api, [CLIENT], { expected, concurrency: 4, onListed: (key, objects) => listed.set(key, objects) });
    expect(live.rules).toHaveLength(2500);
    expect(live.ipEntries).toHaveLength(1000);
    expect(calls).toHaveLength(minimum);
    expect(mostInFlight()).toBe(4);
    expect(Object.fromEntries(expectedListingSizes({ clients: [CLIENT], rules: [], ipEntries: [] }, listed))).toEqual({
      [listingKey(CLIENT, 'rules')]: 2500, [listingKey(CLIENT, 'black')]: 1000, [listingKey(CLIENT, 'white')]: 0, [listingKey(CLIENT, 'gray')]: 0,
    });
  });

  it('without an expectation reads each listing one page after another, as many calls', async () => {
    const { api, calls, mostInFlight } = slowApi(hints, black);
    await readLiveState(api, [CLIENT], { concurrency: 8 });
    expect(calls).toHaveLength(minimum);
    // One page of each of the four listings at a time, and the credential-stuffing rules.
    expect(mostInFlight()).toBe(5);
    expect(calls.filter((call) => call.startsWith('rules@'))).toEqual(['rules@0', 'rules@999', 'rules@1998']);
  });
});
