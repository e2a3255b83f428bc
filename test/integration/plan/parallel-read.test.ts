/**
 * A no-op plan against the emulator reads every listing at exactly the minimum
 * calls while requesting the pages the desired state predicts at once, and the
 * daemon's memory of the last cycle's sizes predicts the listings the policies
 * say nothing about (foreign objects).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { CallOptions } from '../../../src/api/client.js';
import type { ApiIpRule } from '../../../src/api/records.js';
import { HINT_PAGE_LIMIT, IP_RULE_PAGE_LIMIT, ServiceApi } from '../../../src/api/service.js';

import { minimumListingCalls } from '../../../src/live/paging.js';
import { NEVER_EXPIRES } from '../../../src/model/ip.js';
import type { ListingKey } from '../../../src/live/listing-key.js';
import { loadDesired, prepare } from '../../../src/reconcile/prepare.js';
import { TEST_TOKEN, useTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { runSettings } from '../../../src/reconcile/settings.js';

const CLIENT = 10042;
const DENY = 700;
const FOREIGN_GRAY = 650;
const emulator = useTestEmulator();
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const address = (i: number) => `10.20.${Math.floor(i / 250)}.${i % 250}`;

/** A ServiceApi that records, per IP list, the most page calls it had in flight at once. */
class WatchedApi extends ServiceApi {
  readonly mostInFlight = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();

  override async listIpRules(clientId: number, list: string, offset: number, limit?: number, options?: CallOptions): Promise<ApiIpRule[]> {
    const now = (this.inFlight.get(list) ?? 0) + 1;
    this.inFlight.set(list, now);
    this.mostInFlight.set(list, Math.max(now, this.mostInFlight.get(list) ?? 0));
    try {
      return await super.listIpRules(clientId, list, offset, limit, options);
    } finally {
      this.inFlight.set(list, (this.inFlight.get(list) ?? 1) - 1);
    }
  }
}

async function setUp(emu: TestEmulator): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'rampart-parallel-read-'));
  const ips = Array.from({ length: DENY }, (_, i) => address(i));
  await writeFile(join(dir, 'app.yaml'), `version: 1\nclient: ${CLIENT}\napplication: 7\nrules: []\nip_lists:\n  deny:\n    - ips: [${ips.join(', ')}]\n`);
  for (const ip of ips) {
    emu.control.seedIpObject({ clientid: CLIENT, list: 'black', values: [`${ip}/32`], pools: [7], expired_at: NEVER_EXPIRES, reason: '[managed-by:rampart]' });
  }
  for (let i = 0; i < FOREIGN_GRAY; i++) {
    emu.control.seedIpObject({ clientid: CLIENT, list: 'gray', values: [`10.30.${Math.floor(i / 250)}.${i % 250}/32`], reason: 'console' });
  }
  return dir;
}

describe('a no-op read with predicted pages', () => {
  it('makes exactly the minimum calls, the desired lists\' pages in flight together, and the daemon predicts the foreign list from the last cycle', async () => {
    const emu = await emulator.start({ latencyMs: 15 });
    const policies = await setUp(emu);
    const http = new ApiClient({ baseUrl: emu.url, credentials: { token: TEST_TOKEN } });
    try {
      const minimum = minimumListingCalls(0, HINT_PAGE_LIMIT) + minimumListingCalls(DENY, IP_RULE_PAGE_LIMIT)
        + minimumListingCalls(0, IP_RULE_PAGE_LIMIT) + minimumListingCalls(FOREIGN_GRAY, IP_RULE_PAGE_LIMIT)
        + 1 // the client's credential-stuffing rules, in one call
        + 1; // its applications (the policies name application 7), in one call, beside the listings

      const first = new WatchedApi(http);
      const listed = new Map<ListingKey, number>();
      const cold = await prepare({ policies, policy: await loadDesired({ policies }), api: first, settings: runSettings(), onListed: (key, n) => listed.set(key, n) });
      expect(cold.plan.changes).toEqual([]);
      expect(http.totalCalls).toBe(minimum);
      expect(first.mostInFlight.get('black')).toBe(minimumListingCalls(DENY, IP_RULE_PAGE_LIMIT));
      // The policies declare no gray value: nothing to predict from, one page after another.
      expect(first.mostInFlight.get('gray')).toBe(1);

      const second = new WatchedApi(http);
      const warm = await prepare({ policies, policy: await loadDesired({ policies }), api: second, settings: runSettings(), lastListed: listed });
      expect(warm.plan.changes).toEqual([]);
      expect(http.totalCalls).toBe(2 * minimum);
      expect(second.mostInFlight.get('gray')).toBe(minimumListingCalls(FOREIGN_GRAY, IP_RULE_PAGE_LIMIT));
    } finally {
      await http.close();
    }
  });
});
