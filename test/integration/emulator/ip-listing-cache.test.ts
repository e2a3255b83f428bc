/**
 * The IP listing is derived once and kept while nothing changes (src/emulator/ip/listing-cache.ts).
 * Whatever happens between two listings (writes, forced creates that shrink an object in place,
 * the listing lag passing, expiry, a reset, the clock moving), each listing must equal what a full
 * scan of the state shows at that moment.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

const C = 7;
const START = 1_800_000_000_000;
let now = START;
let emu: TestEmulator;
beforeEach(async () => {
  now = START;
  emu = await startTestEmulator({ now: () => now, listingLagMs: 2000, ipGranularity: 'per-request' });
});
afterEach(async () => {
  await emu.close();
});

type Listed = { id: number; list: string; rule_type: string; subnet: string | null; source_values: string[] | null };

async function listed(list: string | null, ruleType: string | null): Promise<Listed[]> {
  const filters = [`filter%5Bclientid%5D=${C}`, ...(list ? [`filter%5Blist%5D=${list}`] : []), ...(ruleType ? [`filter%5Brule_type%5D=${ruleType}`] : [])];
  const out: Listed[] = [];
  for (let offset = 0; ; offset += 300) {
    const page = (await emu.call('GET', `/v4/ip_rules?${filters.join('&')}&limit=300&offset=${offset}`)).body.objects as Listed[];
    out.push(...page);
    if (page.length < 300) return out;
  }
}

/** What a scan of the whole state shows now: listed, not expired, sorted by id. */
function scanned(list: string | null, ruleType: string | null): Listed[] {
  return emu.control.state().ipObjects
    .filter((s) => s.listedFromMs <= now && (s.unlistedFromMs === undefined || now < s.unlistedFromMs) && s.record.expired_at * 1000 > now)
    .map((s) => s.record)
    .filter((o) => o.clientid === C && (list === null || o.list === list) && (ruleType === null || o.rule_type === ruleType))
    .sort((a, b) => a.id - b.id) as unknown as Listed[];
}

describe('the IP listing kept between calls', () => {
  it('always equals a scan of the state, through 400 random writes, lags, expiries and resets', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const nowSeconds = () => Math.floor(now / 1000);
    for (let step = 0; step < 400; step++) {
      const action = random();
      if (action < 0.35) {
        const country = random() < 0.5;
        const values = country ? [pick(['DE', 'FR', 'US', 'GB']), pick(['IT', 'ES'])] : undefined;
        await emu.call('POST', '/v4/ip_rules', {
          clientid: C,
          force: random() < 0.5,
          ip_rule: {
            list: pick(['black', 'white', 'gray']),
            rule_type: country ? 'country' : 'ip_range',
            ...(country ? { country: values } : { subnet: `10.0.0.${Math.floor(random() * 8)}` }),
            pools: [0],
            expired_at: random() < 0.3 ? nowSeconds() + 1 + Math.floor(random() * 5) : 33223139044,
          },
        });
      } else if (action < 0.5) {
        const ids = emu.control.state().ipObjects.map((s) => s.record.id);
        if (ids.length > 0) await emu.call('DELETE', '/v4/ip_rules', { filter: { clientid: C, id: [pick(ids)] } });
      } else if (action < 0.7) {
        now += Math.floor(random() * 2500);
      } else if (action < 0.72) {
        await emu.call('POST', '/__admin/reset');
      } else if (action < 0.75) {
        await emu.call('PUT', '/__admin/config', { listingLagMs: pick([0, 1000, 2000]) });
      } else {
        const list = pick(['black', 'white', 'gray', null]);
        const ruleType = pick(['ip_range', 'country', null]);
        expect(await listed(list, ruleType), `step ${step}`).toEqual(scanned(list, ruleType));
      }
    }
  });

  it('shows an object the moment its lag has passed, and drops it the moment it expires', async () => {
    const expires = Math.floor(now / 1000) + 10;
    await emu.call('POST', '/v4/ip_rules', {
      clientid: C, ip_rule: { list: 'black', rule_type: 'ip_range', subnet: '1.2.3.4', pools: [0], expired_at: expires },
    });
    expect(await listed('black', null)).toEqual([]);
    now += 1999;
    expect(await listed('black', null)).toEqual([]);
    now += 1;
    expect((await listed('black', null)).map((o) => o.subnet)).toEqual(['1.2.3.4/32']);
    now = expires * 1000 - 1;
    expect(await listed('black', null)).toHaveLength(1);
    now += 1;
    expect(await listed('black', null)).toEqual([]);
  });
});
