/**
 * Offset paging against the emulator while another writer's delete or update
 * lands between two page calls (faults `delete-after-list`,
 * `update-after-list`): a delete shifts every later object back by one, and
 * so does an update in a listing ordered by `updated_at`. The read must still
 * see every object that exists: one skipped owned rule or address would be
 * planned as a create, a duplicate.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, ServiceApi } from '../../../src/api/service.js';
import { readLiveState } from '../../../src/live/read.js';
import { listingKey, type ListingSizes } from '../../../src/live/listing-key.js';
import { IP_LISTS } from '../../../src/model/ip.js';
import { TEST_TOKEN, useTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const CLIENT = 10042;
const emulator = useTestEmulator();

async function read(emu: TestEmulator, expected?: ListingSizes) {
  const http = new ApiClient({ baseUrl: emu.url, credentials: { token: TEST_TOKEN } });
  try {
    return await readLiveState(new ServiceApi(http), [CLIENT], expected ? { expected } : {});
  } finally {
    await http.close();
  }
}

const existing = (emu: TestEmulator, kind: 'hints' | 'ipObjects') =>
  emu.control.state()[kind].filter((s) => s.unlistedFromMs === undefined).map((s) => s.record.id).sort((a, b) => a - b);

/** Ids that exist but the read did not see: each would be planned again as a duplicate. */
const missing = (ids: readonly number[], read: readonly { id: number }[]) => {
  const seen = new Set(read.map((r) => r.id));
  return ids.filter((id) => !seen.has(id));
};

const seedRules = (emu: TestEmulator, count: number) => {
  for (let i = 0; i < count; i++) {
    emu.control.seedHint({
      clientid: CLIENT, type: 'vpatch', point: ['header', 'X-SHIFT'], attack_type: 'any', comment: `r${i} [managed-by:rampart]`,
      action: [{ point: ['instance'], type: 'equal', value: String(i + 1) }],
    });
  }
};

describe('a listing that shifts between page calls', () => {
  it('reads every rule when a rule on the first page is deleted during the read', async () => {
    const emu = await emulator.start();
    seedRules(emu, HINT_PAGE_LIMIT + 500);
    emu.control.addFault({ route: 'POST /v1/objects/hint', kind: 'delete-after-list' });

    const live = await read(emu);
    expect(emu.control.faults()).toEqual([]);
    const ids = existing(emu, 'hints');
    expect(ids).toHaveLength(HINT_PAGE_LIMIT + 499);
    expect(missing(ids, live.rules)).toEqual([]);
    expect(live.rules.map((r) => r.id)).toEqual(ids);
  });

  it('reads every IP object of every list when an object on a first page is deleted during the read', async () => {
    const emu = await emulator.start();
    IP_LISTS.forEach((list, l) => {
      for (let i = 0; i < IP_RULE_PAGE_LIMIT + 100; i++) {
        emu.control.seedIpObject({ clientid: CLIENT, list, values: [`10.${l}.${Math.floor(i / 250)}.${i % 250}/32`], reason: 'r [managed-by:rampart]' });
      }
    });
    // The three lists are read at once: each first page shifts its own list.
    emu.control.addFault({ route: 'GET /v4/ip_rules', kind: 'delete-after-list', count: IP_LISTS.length });

    const live = await read(emu);
    expect(emu.control.faults()).toEqual([]);
    const ids = existing(emu, 'ipObjects');
    expect(ids).toHaveLength(IP_LISTS.length * (IP_RULE_PAGE_LIMIT + 99));
    expect(missing(ids, live.ipEntries)).toEqual([]);
    expect(live.ipEntries.map((e) => e.id)).toEqual(ids);
  });

  it('reads every rule when the pages are requested at once and the first one answered shifts the listing', async () => {
    const emu = await emulator.start();
    const count = 3 * HINT_PAGE_LIMIT;
    seedRules(emu, count);
    // Every page of the listing in flight together; the first answered (whichever it is) deletes its first object.
    emu.control.addFault({ route: 'POST /v1/objects/hint', kind: 'delete-after-list' });

    const live = await read(emu, new Map([[listingKey(CLIENT, 'rules'), count]]));
    expect(emu.control.faults()).toEqual([]);
    const ids = existing(emu, 'hints');
    expect(ids).toHaveLength(count - 1);
    expect(live.rules.map((r) => r.id)).toEqual(ids);
    // Read twice: the shifted read and the quiet one, each at the listing's minimum.
    const listingCalls = emu.control.calls().filter((call) => call.route === 'POST /v1/objects/hint');
    expect(listingCalls).toHaveLength(2 * 4);
  });

  it('reads every rule at the minimum of calls when rules are updated between page calls: the id order does not move', async () => {
    const emu = await emulator.start();
    const count = 2 * HINT_PAGE_LIMIT + 500;
    seedRules(emu, count);
    emu.control.addFault({ route: 'POST /v1/objects/hint', kind: 'update-after-list', count: 3 });

    const live = await read(emu);
    expect(emu.control.faults()).toEqual([]);
    expect(live.rules.map((r) => r.id)).toEqual(existing(emu, 'hints'));
    // No listing moved under the read: one read, three pages.
    expect(emu.control.calls().filter((call) => call.route === 'POST /v1/objects/hint')).toHaveLength(3);
  });

  it('by updated_at, plain offsets skip a rule updated during the read; by id they do not', async () => {
    const emu = await emulator.start();
    seedRules(emu, 30);
    const http = new ApiClient({ baseUrl: emu.url, credentials: { token: TEST_TOKEN } });
    const readByOffsets = async (orderBy: string) => {
      const seen: number[] = [];
      for (let offset = 0; ; offset += 10) {
        const page = await http.call('POST', '/v1/objects/hint', { filter: { clientid: [CLIENT] }, order_by: orderBy, order_desc: false, limit: 10, offset }) as { id: number }[];
        seen.push(...page.map((hint) => hint.id));
        if (page.length < 10) return seen;
      }
    };
    try {
      emu.control.addFault({ route: 'POST /v1/objects/hint', kind: 'update-after-list' });
      const byUpdate = await readByOffsets('updated_at');
      expect(missing(existing(emu, 'hints'), byUpdate.map((id) => ({ id })))).toHaveLength(1);
      emu.control.addFault({ route: 'POST /v1/objects/hint', kind: 'update-after-list' });
      const byId = await readByOffsets('id');
      expect(missing(existing(emu, 'hints'), byId.map((id) => ({ id })))).toEqual([]);
    } finally {
      await http.close();
    }
  });

  it('reads every IP object when the console replaces one on a first page during the read', async () => {
    const emu = await emulator.start();
    IP_LISTS.forEach((list, l) => {
      for (let i = 0; i < IP_RULE_PAGE_LIMIT + 100; i++) {
        emu.control.seedIpObject({ clientid: CLIENT, list, values: [`10.${l}.${Math.floor(i / 250)}.${i % 250}/32`], reason: 'r [managed-by:rampart]' });
      }
    });
    const before = existing(emu, 'ipObjects');
    emu.control.addFault({ route: 'GET /v4/ip_rules', kind: 'update-after-list', count: IP_LISTS.length });

    const live = await read(emu);
    expect(emu.control.faults()).toEqual([]);
    const ids = existing(emu, 'ipObjects');
    expect(ids).toHaveLength(before.length);
    // Each list's first object was replaced: new ids.
    expect(missing(ids, before.map((id) => ({ id })))).toHaveLength(IP_LISTS.length);
    expect(live.ipEntries.map((e) => e.id)).toEqual(ids);
  });
});
