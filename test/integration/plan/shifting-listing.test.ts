/**
 * Offset paging against the emulator while a console delete lands between two
 * page calls (fault `delete-after-list`): every later object shifts back by
 * one. The read must still see every object that exists: one skipped owned
 * rule or address would be planned as a create, a duplicate.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, ServiceApi } from '../../../src/api/service.js';
import { readLiveState } from '../../../src/live/read.js';
import { listingKey, type ListingSizes } from '../../../src/live/listing-sizes.js';
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
});
