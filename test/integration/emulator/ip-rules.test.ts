import { describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../../src/emulator/index.js';
import { NEVER_EXPIRES } from '../../../src/model/ip.js';
import { useTestEmulator } from '../../helpers/emulator.js';

const C = 10042;
const emulator = useTestEmulator();
const start = (options: Partial<EmulatorOptions> = {}) => emulator.start(options);

const rule = (ip_rule: Record<string, unknown>, force = false) => ({
  clientid: C,
  ip_rule: { list: 'black', pools: [0], expired_at: NEVER_EXPIRES, reason: 'test', ...ip_rule },
  force,
});
const post = (body: unknown) => emulator.current().call('POST', '/v4/ip_rules', body);
const listing = async (list = 'black', extra = '') =>
  (await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&filter%5Blist%5D=${list}&offset=0&limit=300${extra}`)).body.objects as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('POST /v4/ip_rules', () => {
  it('stores a bare IP with its mask and returns the documented fields', async () => {
    await start();
    const r = await post(rule({ rule_type: 'ip_range', subnet: '198.51.100.7' }));
    expect(r.status).toBe(200);
    const [object] = await listing();
    expect(object).toMatchObject({
      id: 1, clientid: C, list: 'black', rule_type: 'ip_range', subnet: '198.51.100.7/32',
      pools: [0], expired_at: NEVER_EXPIRES, reason: 'test', author: 'API',
    });
    expect(typeof object.created_at).toBe('number');
    await post(rule({ rule_type: 'ip_range', subnet: '2001:DB8::1' }));
    await post(rule({ rule_type: 'ip_range', subnet: '203.0.113.0/24' }));
    expect((await listing()).map((o) => o.subnet)).toEqual(['198.51.100.7/32', '2001:db8::1/128', '203.0.113.0/24']);
  });

  it('per-value granularity: one object per source value, singular field set', async () => {
    await start({ ipGranularity: 'per-value' });
    const r = await post(rule({ rule_type: 'country', source_values: ['KP', 'ir'], expired_at: String(NEVER_EXPIRES) }));
    expect(r.status).toBe(200);
    const objects = await listing();
    expect(objects.map((o) => [o.source_values, o.country])).toEqual([[['KP'], 'KP'], [['IR'], 'IR']]);
    expect(objects[0].expired_at).toBe(NEVER_EXPIRES); // quoted number read back as a number
  });

  it('per-request granularity: one object holding every value', async () => {
    await start({ ipGranularity: 'per-request' });
    await post(rule({ rule_type: 'proxy_type', source_values: ['TOR', 'vpn'] }));
    await post(rule({ rule_type: 'datacenter', source_values: ['hetzner', 'AWS'] }));
    const objects = await listing();
    expect(objects).toHaveLength(2);
    expect(objects[0]).toMatchObject({ rule_type: 'proxy_type', source_values: ['TOR', 'VPN'], proxy_type: 'TOR' });
    expect(objects[1]).toMatchObject({ rule_type: 'datacenter', source_values: ['hetzner', 'aws'], datacenter: 'hetzner' });
  });

  it('switches granularity at run time', async () => {
    await start();
    emulator.current().control.setConfig({ ipGranularity: 'per-request' });
    await post(rule({ rule_type: 'country', source_values: ['DE', 'FR'] }));
    expect(await listing()).toHaveLength(1);
  });

  it.each([
    ['list unknown', rule({ list: 'red', rule_type: 'ip_range', subnet: '1.2.3.4' }), 'list'],
    ['rule_type unknown', rule({ rule_type: 'asn', subnet: '1.2.3.4' }), 'rule_type'],
    ['subnet missing', rule({ rule_type: 'ip_range' }), 'subnet'],
    ['subnet not an IP', rule({ rule_type: 'ip_range', subnet: '1.2.3' }), 'subnet'],
    ['IPv4 wider than /12', rule({ rule_type: 'ip_range', subnet: '10.0.0.0/8' }), 'subnet'],
    ['IPv6 wider than /32', rule({ rule_type: 'ip_range', subnet: '2001:db8::/16' }), 'subnet'],
    ['host bits set', rule({ rule_type: 'ip_range', subnet: '203.0.113.5/24' }), 'subnet'],
    ['prefix too long', rule({ rule_type: 'ip_range', subnet: '1.2.3.4/33' }), 'subnet'],
    ['unknown country', rule({ rule_type: 'country', source_values: ['XX'] }), 'source_values'],
    ['unknown proxy type', rule({ rule_type: 'proxy_type', source_values: ['FOO'] }), 'source_values'],
    ['unknown datacenter', rule({ rule_type: 'datacenter', source_values: ['digitalocean'] }), 'source_values'],
    ['empty source_values', rule({ rule_type: 'country', source_values: [] }), 'source_values'],
    ['empty pools', rule({ rule_type: 'country', source_values: ['KP'], pools: [] }), 'pools'],
    ['negative pool', rule({ rule_type: 'country', source_values: ['KP'], pools: [-1] }), 'pools'],
    ['expiry past forever', rule({ rule_type: 'country', source_values: ['KP'], expired_at: NEVER_EXPIRES + 1 }), 'expired_at'],
    ['expiry in the past', rule({ rule_type: 'country', source_values: ['KP'], expired_at: 1000 }), 'expired_at'],
    ['expiry not a number', rule({ rule_type: 'country', source_values: ['KP'], expired_at: 'soon' }), 'expired_at'],
  ])('refuses %s with 400', async (_name, body, field) => {
    await start();
    const r = await post(body);
    expect(r.http).toBe(400);
    expect(r.body.ip_rule[field].error).toBeDefined();
    expect(await listing()).toEqual([]);
  });

  it('refuses a missing clientid, ip_rule or a non-boolean force', async () => {
    await start();
    expect((await post({ ip_rule: rule({ rule_type: 'country', source_values: ['KP'] }).ip_rule })).body.clientid.error).toBeDefined();
    expect((await post({ clientid: C })).body.ip_rule.error).toBeDefined();
    expect((await post({ ...rule({ rule_type: 'country', source_values: ['KP'] }), force: 'yes' })).body.force.error).toBeDefined();
  });
});

describe('existence and force', () => {
  it('answers 409 for an existing value without force and creates nothing', async () => {
    await start();
    await post(rule({ rule_type: 'country', source_values: ['KP'] }));
    const r = await post(rule({ rule_type: 'country', source_values: ['IR', 'KP'] }));
    expect(r.http).toBe(409);
    expect(r.body).toBe('Already exists');
    expect((await listing()).map((o) => o.country)).toEqual(['KP']);
  });

  it('the same value with other pools or in another list is not a conflict', async () => {
    await start();
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4' }));
    expect((await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', pools: [7] }))).status).toBe(200);
    expect((await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', list: 'white' }))).status).toBe(200);
    expect((await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4/32', pools: [0] }))).http).toBe(409);
  });

  it('pools compare as a set', async () => {
    await start();
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', pools: [7, 3] }));
    expect((await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', pools: [3, 7] }))).http).toBe(409);
  });

  it('force replaces: the value leaves old objects, empty ones go, then new objects are created', async () => {
    await start({ ipGranularity: 'per-request' });
    await post(rule({ rule_type: 'country', source_values: ['KP', 'IR'], reason: 'old' }));
    await post(rule({ rule_type: 'country', source_values: ['CU'], reason: 'old' }));
    const r = await post(rule({ rule_type: 'country', source_values: ['KP', 'CU'], reason: 'new' }, true));
    expect(r.status).toBe(200);
    const objects = await listing();
    expect(objects.map((o) => [o.id, o.source_values, o.country, o.reason])).toEqual([
      [1, ['IR'], 'IR', 'old'],
      [3, ['KP', 'CU'], 'KP', 'new'],
    ]);
  });

  it('force on an IP overwrites its expiry', async () => {
    await start();
    const soon = Math.floor(Date.now() / 1000) + 3600;
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', expired_at: soon }));
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4' }, true));
    const objects = await listing();
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({ id: 2, expired_at: NEVER_EXPIRES });
  });

  it('force: false behaves as no force', async () => {
    await start();
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4' }));
    expect((await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4' }, false))).http).toBe(409);
  });
});

describe('GET /v4/ip_rules', () => {
  it('accepts brackets encoded or not, filters by list, pages stably by id', async () => {
    await start();
    for (let i = 1; i <= 5; i++) await post(rule({ rule_type: 'ip_range', subnet: `192.0.2.${i}` }));
    await post(rule({ rule_type: 'ip_range', subnet: '192.0.2.9', list: 'white' }));
    const raw = await emulator.current().call('GET', `/v4/ip_rules?filter[clientid]=${C}&filter[list]=black&offset=0&limit=2`);
    expect(raw.body.objects.map((o: { id: number }) => o.id)).toEqual([1, 2]);
    const page = await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&filter%5Blist%5D=black&offset=4&limit=2`);
    expect(page.body.objects.map((o: { id: number }) => o.id)).toEqual([5]);
    const end = await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&filter%5Blist%5D=black&offset=6&limit=2`);
    expect(end.body).toEqual({ objects: [] });
    expect((await listing('white')).map((o) => o.subnet)).toEqual(['192.0.2.9/32']);
    const all = await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&limit=300`);
    expect(all.body.objects).toHaveLength(6);
  });

  it('refuses a limit over 300, a missing clientid and junk numbers', async () => {
    await start();
    const over = await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&limit=301`);
    expect(over.http).toBe(400);
    expect(over.body.limit.error).toMatch(/300/);
    expect((await emulator.current().call('GET', '/v4/ip_rules?limit=10')).body.filter.clientid.error).toBeDefined();
    expect((await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=abc`)).http).toBe(400);
    expect((await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&offset=-1`)).http).toBe(400);
    expect((await emulator.current().call('GET', `/v4/ip_rules?filter%5Bclientid%5D=${C}&filter%5Blist%5D=pink`)).http).toBe(400);
  });
});

describe('DELETE /v4/ip_rules', () => {
  it('removes every listed id in one call and ignores unknown ids', async () => {
    await start();
    for (let i = 1; i <= 3; i++) await post(rule({ rule_type: 'ip_range', subnet: `192.0.2.${i}` }));
    const r = await emulator.current().call('DELETE', '/v4/ip_rules', { filter: { clientid: C, id: [1, 3, 999] } });
    expect(r.http).toBe(200);
    expect(r.body).toEqual({ deleted: 2 });
    expect((await listing()).map((o) => o.id)).toEqual([2]);
    // The value is free again.
    expect((await post(rule({ rule_type: 'ip_range', subnet: '192.0.2.1' }))).status).toBe(200);
  });

  it('with filter.list, as the service\'s client sends it, deletes only that list\'s objects', async () => {
    await start();
    await post(rule({ rule_type: 'ip_range', subnet: '192.0.2.1' }));
    await post({ ...rule({ rule_type: 'ip_range', subnet: '192.0.2.2' }), ip_rule: { ...rule({ rule_type: 'ip_range', subnet: '192.0.2.2' }).ip_rule, list: 'white' } });
    const call = (list: string) => emulator.current().call('DELETE', '/v4/ip_rules', { filter: { clientid: C, id: [1, 2], list } });
    expect((await call('gray')).body).toEqual({ deleted: 0 });
    expect((await call('white')).body).toEqual({ deleted: 1 });
    expect((await listing()).map((o) => o.id)).toEqual([1]);
    expect((await call('pink')).http).toBe(400);
  });

  it('deleting a grouped object removes all its values', async () => {
    await start({ ipGranularity: 'per-request' });
    await post(rule({ rule_type: 'country', source_values: ['KP', 'IR'] }));
    await emulator.current().call('DELETE', '/v4/ip_rules', { filter: { clientid: C, id: [1] } });
    expect(await listing()).toEqual([]);
  });

  it('leaves other accounts alone and refuses a malformed filter', async () => {
    await start();
    await emulator.current().call('POST', '/v4/ip_rules', { ...rule({ rule_type: 'ip_range', subnet: '1.2.3.4' }), clientid: 7 });
    expect((await emulator.current().call('DELETE', '/v4/ip_rules', { filter: { clientid: C, id: [1] } })).body).toEqual({ deleted: 0 });
    expect((await emulator.current().call('DELETE', '/v4/ip_rules', { filter: { clientid: C } })).http).toBe(400);
    expect((await emulator.current().call('DELETE', '/v4/ip_rules')).http).toBe(400);
  });
});

describe('expiry', () => {
  it('objects vanish at expired_at by the emulator clock', async () => {
    let now = 1_800_000_000_000;
    await start({ now: () => now });
    const nowSec = now / 1000;
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', expired_at: nowSec + 60 }));
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.5', expired_at: nowSec + 3600 }));
    expect(await listing()).toHaveLength(2);
    emulator.current().control.advanceClock(60);
    expect((await listing()).map((o) => o.subnet)).toEqual(['1.2.3.5/32']);
    // An expired value no longer exists: creating it again is no conflict.
    expect((await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4', expired_at: nowSec + 7200 }))).status).toBe(200);
    now += 3600_000;
    expect((await listing()).map((o) => o.subnet)).toEqual(['1.2.3.4/32']);
  });
});

describe('seeded foreign objects', () => {
  it('lists objects planted directly, with their author', async () => {
    await start();
    const planted = emulator.current().control.seedIpObject({ clientid: C, rule_type: 'country', values: ['CN'], reason: 'by hand', author: 'alice@example.com' });
    expect(planted).toMatchObject({ country: 'CN', source_values: ['CN'] });
    await post(rule({ rule_type: 'ip_range', subnet: '1.2.3.4' }));
    const objects = await listing();
    expect(objects.map((o) => [o.id, o.author])).toEqual([[1, 'alice@example.com'], [2, 'API']]);
    expect((await post(rule({ rule_type: 'country', source_values: ['CN'] }))).http).toBe(409);
  });
});
