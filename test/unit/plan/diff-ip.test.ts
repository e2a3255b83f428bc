import { describe, expect, it } from 'vitest';
import type { PlanChange } from '../../../src/plan/types.js';
import { desiredIp, desiredIps, desiredState, liveObject, liveState, type IpFields } from './builders.js';
import { planDocument } from '../../helpers/plan-document.js';

const LATER = 1_800_000_000;

/** Creates as `[force, values, replaces]`, deletes as `[ids, reason per id]`. */
function calls(changes: readonly PlanChange[]): unknown[] {
  return changes.map((c) => {
    if (c.kind !== 'ip' || c.action === 'adopt') return c.action;
    if (c.action === 'create') return ['create', c.force, c.object.values, c.replaces ?? []];
    return ['delete', c.ids, c.objects.map((o) => o.reason)];
  });
}

const KINDS: [string, string, IpFields][] = [
  ['ip_range v4', '203.0.113.0/24', { ruleType: 'ip_range' }],
  ['ip_range v6', '2001:db8::/32', { ruleType: 'ip_range' }],
  ['country', 'KP', { ruleType: 'country' }],
  ['proxy_type', 'TOR', { ruleType: 'proxy_type' }],
  ['datacenter', 'hetzner', { ruleType: 'datacenter' }],
];

describe.each(KINDS)('IP entries: %s', (_label, value, kind) => {
  const f: IpFields = { ...kind, reason: 'scanner farm' };

  it('creates a missing value without force', () => {
    const plan = planDocument(desiredState([], [desiredIp(value, f, 30)]), liveState());
    expect(calls(plan.changes)).toEqual([['create', false, [value], []]]);
    expect(plan.changes[0]).toMatchObject({
      kind: 'ip', client: 10042, application: 7, file: 'policies/shop.yaml', line: 30, name: 'ip_lists.deny[0]',
      object: { list: 'black', rule_type: kind.ruleType, pools: [7], reason: 'scanner farm' },
    });
    expect(plan.summary).toEqual({ create: 1, update: 0, delete: 0, unchanged: 0, replace: 0, adopt: 0 });
  });

  it('leaves an equal owned or unmanaged value unchanged', () => {
    for (const owner of ['rampart', null, 'team-a']) {
      const plan = planDocument(desiredState([], [desiredIp(value, f)]), liveState([], liveObject(5, [value], f, owner)));
      expect(plan.changes).toEqual([]);
      expect(plan.summary.unchanged).toBe(1);
      // An unmarked object is listed once in `unmanaged` (adoptable); another owner's gets a note.
      expect(plan.notes.map((n) => n.level)).toEqual(owner === 'team-a' ? ['info'] : []);
      expect(plan.unmanaged.map((u) => u.id)).toEqual(owner === null ? [5] : []);
    }
  });

  it('lists the unmanaged object that satisfies a value in `unmanaged`, not as a note', () => {
    const plan = planDocument(desiredState([], [desiredIp(value, f, 31)]), liveState([], liveObject(900, [value], f, null)));
    expect(plan.notes).toEqual([]);
    expect(plan.unmanaged).toEqual([expect.objectContaining({ kind: 'ip', line: 31, id: 900, value })]);
  });

  it('deletes an owned value no policy declares, never an unmanaged or foreign one', () => {
    const live = [...liveObject(5, [value], f), ...liveObject(6, [value], f, null), ...liveObject(7, [value], f, 'team-a')];
    const plan = planDocument(desiredState(), liveState([], live));
    expect(calls(plan.changes)).toEqual([['delete', [5], ['not-declared']]]);
    expect(plan.summary.delete).toBe(1);
    expect(plan.safety).toMatchObject({ delete_count: 1, owned_count: 1 });
  });

  it('changes an owned value with another expiry by a forced create, no delete', () => {
    const plan = planDocument(
      desiredState([], [desiredIp(value, { ...f, expiresAt: LATER })]),
      liveState([], liveObject(8, [value], f)),
    );
    expect(calls(plan.changes)).toEqual([['create', true, [value], [8]]]);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 0, replace: 1, adopt: 0 });
    expect(plan.changes[0]).toMatchObject({ object: { expires_at: LATER } });
  });

  it('leaves an unmanaged value with another reason alone and warns', () => {
    const plan = planDocument(
      desiredState([], [desiredIp(value, { ...f, reason: 'new reason' })]),
      liveState([], liveObject(9, [value], f, null)),
    );
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
    expect(plan.notes).toEqual([expect.objectContaining({
      level: 'warning', id: 9,
      message: `${value}: exists unmanaged with a different reason (id 9); left as is, not created`,
    })]);
  });

  it('removes an owned duplicate of a value, keeping one', () => {
    const plan = planDocument(
      desiredState([], [desiredIp(value, f)]),
      liveState([], [...liveObject(12, [value], f), ...liveObject(11, [value], f)]),
    );
    expect(calls(plan.changes)).toEqual([['delete', [12], ['duplicate']]]);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 1, unchanged: 1, replace: 0, adopt: 0 });
    expect(plan.safety.delete_count).toBe(0);
  });

  it('does not force over an unmanaged holder: the owned copy goes as a duplicate', () => {
    const plan = planDocument(
      desiredState([], [desiredIp(value, { ...f, expiresAt: LATER })]),
      liveState([], [...liveObject(13, [value], f), ...liveObject(14, [value], f, null)]),
    );
    expect(calls(plan.changes)).toEqual([['delete', [13], ['duplicate']]]);
    expect(plan.notes.map((n) => n.level)).toEqual(['warning']);
  });
});

describe('grouped IP objects', () => {
  const countries: IpFields = { ruleType: 'country' };

  it.each([
    ['country', ['CN', 'KP', 'RU'], countries],
    ['proxy_type', ['PUB', 'TOR', 'VPN'], { ruleType: 'proxy_type' } as IpFields],
    ['datacenter', ['aws', 'hetzner', 'ovh'], { ruleType: 'datacenter' } as IpFields],
  ])('shrinks a grouped %s object: moves the kept values out first, then deletes it', (_l, values, f) => {
    const [gone, ...kept] = values as [string, ...string[]];
    const plan = planDocument(desiredState([], desiredIps(kept, f)), liveState([], liveObject(991, values, f)));
    expect(calls(plan.changes)).toEqual([
      ['create', true, kept, [991]],
      ['delete', [991], ['not-declared']],
    ]);
    const del = plan.changes[1];
    expect(del?.kind === 'ip' && del.action === 'delete' && del.objects[0]).toMatchObject({
      id: 991, size: 3, object: { values: [gone] }, moved: kept,
    });
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 1, unchanged: 0, replace: 2, adopt: 0 });
    expect(plan.safety.delete_count).toBe(1);
  });

  it('deletes only the objects of undeclared values when the listing has one object per value', () => {
    const live = [...liveObject(1, ['KP'], countries), ...liveObject(2, ['RU'], countries), ...liveObject(3, ['CN'], countries)];
    const plan = planDocument(desiredState([], desiredIps(['KP', 'RU'], countries)), liveState([], live));
    expect(calls(plan.changes)).toEqual([['delete', [3], ['not-declared']]]);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 1, unchanged: 2, replace: 0, adopt: 0 });
  });

  it('deletes a whole grouped object nothing declares, counting every value', () => {
    const plan = planDocument(desiredState(), liveState([], liveObject(4, ['CN', 'KP', 'RU'], countries)));
    expect(calls(plan.changes)).toEqual([['delete', [4], ['not-declared']]]);
    expect(plan.summary.delete).toBe(3);
    expect(plan.safety).toMatchObject({ delete_count: 3, owned_count: 3 });
  });

  it('keeps the larger object of duplicates so nothing has to move', () => {
    const live = [...liveObject(1, ['KP'], countries), ...liveObject(2, ['KP', 'RU'], countries)];
    const plan = planDocument(desiredState([], desiredIps(['KP', 'RU'], countries)), liveState([], live));
    expect(calls(plan.changes)).toEqual([['delete', [1], ['duplicate']]]);
  });

  it('moves a kept value out of an object that goes because of a duplicate', () => {
    // KP is kept in 1 (not doomed, larger), so 2 holds a duplicate KP and must go; its RU moves first.
    const live = [...liveObject(1, ['CN', 'KP'], countries), ...liveObject(2, ['KP', 'RU'], countries)];
    const plan = planDocument(desiredState([], desiredIps(['CN', 'KP', 'RU'], countries)), liveState([], live));
    expect(calls(plan.changes)).toEqual([
      ['create', true, ['RU'], [2]],
      ['delete', [2], ['duplicate']],
    ]);
  });

  it('never forces a value out of an unmanaged object: it is satisfied there instead', () => {
    const live = [...liveObject(1, ['CN', 'KP'], countries), ...liveObject(50, ['KP'], countries, null)];
    const plan = planDocument(desiredState([], desiredIps(['KP'], countries)), liveState([], live));
    expect(calls(plan.changes)).toEqual([['delete', [1], ['not-declared']]]);
    expect(plan.notes.map((n) => n.message)).toEqual(['KP: satisfied by unmanaged id 50']);
    expect(plan.summary).toEqual({ create: 0, update: 0, delete: 2, unchanged: 1, replace: 0, adopt: 0 });
  });

  it('groups creates sharing list, type, pools, expiry and reason into one call', () => {
    const desired = [
      ...desiredIps(['KP', 'RU', 'CN'], countries, 20),
      ...desiredIps(['IR'], { ...countries, expiresAt: LATER }, 21),
      ...desiredIps(['SY'], { ...countries, pools: [8] }, 22),
      ...desiredIps(['TOR', 'VPN'], { ruleType: 'proxy_type' }, 23),
      ...desiredIps(['aws', 'ovh'], { ruleType: 'datacenter' }, 24),
    ];
    const plan = planDocument(desiredState([], desired), liveState());
    expect(calls(plan.changes)).toEqual([
      ['create', false, ['CN', 'KP', 'RU'], []],
      ['create', false, ['IR'], []],
      ['create', false, ['SY'], []],
      ['create', false, ['TOR', 'VPN'], []],
      ['create', false, ['aws', 'ovh'], []],
    ]);
    expect(plan.api_calls).toBe(5);
    expect(plan.summary.create).toBe(9);
  });

  it('merges values of one group declared on several lines, listing every source', () => {
    const desired = [...desiredIps(['KP'], countries, 20, 'ip_lists.deny[0]'), ...desiredIps(['RU'], countries, 25, 'ip_lists.deny[1]')];
    const plan = planDocument(desiredState([], desired), liveState());
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({
      line: 20, name: 'ip_lists.deny[0]',
      sources: [
        { file: 'policies/shop.yaml', line: 20, col: 5, name: 'ip_lists.deny[0]', values: ['KP'] },
        { file: 'policies/shop.yaml', line: 25, col: 5, name: 'ip_lists.deny[1]', values: ['RU'] },
      ],
    });
  });

  it('keeps forced and plain creates of one group apart', () => {
    const plan = planDocument(
      desiredState([], desiredIps(['KP', 'RU'], { ...countries, reason: 'new' })),
      liveState([], liveObject(7, ['KP'], countries)),
    );
    expect(calls(plan.changes)).toEqual([
      ['create', true, ['KP'], [7]],
      ['create', false, ['RU'], []],
    ]);
  });
});

describe('IP call counts', () => {
  it('makes one create per subnet', () => {
    const subnets = ['198.51.100.7/32', '203.0.113.0/24', '2001:db8::/32'];
    const plan = planDocument(desiredState([], desiredIps(subnets, { ruleType: 'ip_range' })), liveState());
    expect(calls(plan.changes)).toEqual(subnets.sort().map((s) => ['create', false, [s], []]));
    expect(plan.api_calls).toBe(3);
  });

  it('makes one batched delete per client, each id once, sent as one call per list', () => {
    const live = [
      ...liveObject(3, ['10.0.0.0/8'], { ruleType: 'ip_range' }),
      ...liveObject(1, ['CN', 'KP'], { ruleType: 'country' }),
      ...liveObject(2, ['TOR'], { ruleType: 'proxy_type', list: 'gray' }),
      ...liveObject(9, ['KP'], { client: 20001, ruleType: 'country' }),
      ...liveObject(8, ['aws'], { client: 20001, ruleType: 'datacenter', list: 'white' }),
    ];
    const plan = planDocument(desiredState([], [], [10042, 20001]), liveState([], live, [10042, 20001]));
    expect(plan.changes.map((c) => [c.client, c.action, c.kind === 'ip' && c.action === 'delete' ? c.ids : null])).toEqual([
      [10042, 'delete', [1, 2, 3]],
      [20001, 'delete', [8, 9]],
    ]);
    // 10042: black and gray; 20001: black and white.
    expect(plan.api_calls).toBe(4);
    expect(plan.summary.delete).toBe(6);
  });
});
