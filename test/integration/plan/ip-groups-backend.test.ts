/**
 * The IP lists on the successor groups API (`--ip-api groups`): the same
 * policies converge with no churn, an account switched from v4 plans
 * nothing, and a change of one country in a list of twenty never leaves the
 * other nineteen unprotected (the listing is polled while the apply runs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { useTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const COUNTRIES = ['AF', 'BY', 'CN', 'CU', 'ER', 'IQ', 'IR', 'KP', 'LY', 'ML', 'MM', 'NI', 'RU', 'SD', 'SO', 'SS', 'SY', 'VE', 'YE', 'ZW'];
const policy = (countries: readonly string[]) => `version: 1
client: 10042
application: 7
ip_lists:
  deny:
    - ips: [203.0.113.0/24, 198.51.100.7]
      reason: scanners
    - countries: [${countries.join(', ')}]
    - proxies: [TOR]
  allow:
    - ips: [192.0.2.10]
  gray:
    - datacenters: [aws, ovh]
`;

const emulator = useTestEmulator();
let policies: PolicyDir | undefined;
afterEach(async () => {
  await policies?.cleanup();
  policies = undefined;
});

async function cli(emu: TestEmulator, command: string, ipApi: string, extra: string[] = []) {
  return runCliInProcess([command, '--policies', 'policies', '--api-url', emu.url, '--ip-api', ipApi, ...extra], { cwd: (policies as PolicyDir).root });
}

/** The values each list holds now, by the store (both APIs' view). */
const held = (emu: TestEmulator) => emu.control.state().ipObjects
  .filter((s) => s.unlistedFromMs === undefined)
  .flatMap((s) => (s.record.rule_type === 'ip_range' ? [s.record.subnet] : (s.record.source_values ?? [])));

describe('IP lists on the groups API', () => {
  it('converge with no churn, and switching from or to v4 plans nothing', async () => {
    const emu = await emulator.start();
    policies = await policyDir({ 'shop.yaml': policy(COUNTRIES) });
    const applied = await cli(emu, 'apply', 'groups', ['--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    // One group per value: every country, datacenter and subnet its own.
    expect(emu.control.calls().filter((call) => call.route === 'POST /v1/blocklist/clients/{clientid}/access_rules')).toHaveLength(2 + 20 + 1 + 1 + 2);
    expect(emu.control.calls().filter((call) => call.route.includes('/v4/ip_rules'))).toEqual([]);
    expect(held(emu).sort()).toEqual([...COUNTRIES, 'TOR', '203.0.113.0/24', '198.51.100.7/32', '192.0.2.10/32', 'aws', 'ovh'].sort());

    for (const api of ['groups', 'v4']) {
      const again = await cli(emu, 'plan', api, ['--detailed-exitcode']);
      expect(again.code, `${api}: ${again.stdout}`).toBe(0);
    }
    expect((await cli(emu, 'plan', 'groups', ['--format', 'json'])).stdout).toContain('"ip_api": "groups"');

    // A no-op plan's reads are the minimum: one page of each of the three lists, the rules, the
    // credential-stuffing rules and the applications.
    emu.control.resetCalls();
    expect((await cli(emu, 'plan', 'groups')).code).toBe(0);
    const routes = emu.control.calls().map((call) => call.route).sort();
    expect(routes).toEqual([
      'GET /v1/blocklist/clients/{clientid}/groups', 'GET /v1/blocklist/clients/{clientid}/groups', 'GET /v1/blocklist/clients/{clientid}/groups',
      'GET /v4/clients/{clientid}/credential_stuffing/configs', 'POST /v1/objects/hint', 'POST /v1/objects/pool',
    ]);
  });

  it('changes one country of twenty as a delete and a create, the other nineteen listed throughout', async () => {
    const emu = await emulator.start({ latencyMs: 5 });
    policies = await policyDir({ 'shop.yaml': policy(COUNTRIES) });
    expect((await cli(emu, 'apply', 'groups', ['--auto-approve'])).code).toBe(0);

    const changed = [...COUNTRIES.filter((c) => c !== 'KP'), 'PK'];
    await policies.write('shop.yaml', policy(changed));
    const plan = await cli(emu, 'plan', 'groups');
    // The values added and removed, as a create and a delete of one group each.
    expect(plan.stdout).toMatch(/\+ deny list, country \(1 value\)[^\n]*\n\s+values:\s+PK\n/);
    expect(plan.stdout).toMatch(/- deny list, country \(1 value\)[^\n]*\n\s+values:\s+KP\n/);
    expect(plan.stdout).toContain('IP lists read and written through the groups API');
    const kept = COUNTRIES.filter((c) => c !== 'KP');
    let polls = 0;
    const gaps: string[] = [];
    const poll = setInterval(() => {
      polls++;
      const now = new Set(held(emu));
      for (const country of kept) if (!now.has(country)) gaps.push(country);
    }, 1);
    try {
      const applied = await cli(emu, 'apply', 'groups', ['--auto-approve']);
      expect(applied.code, applied.stderr).toBe(0);
    } finally {
      clearInterval(poll);
    }
    expect(polls).toBeGreaterThan(0);
    expect(gaps).toEqual([]);
    expect(held(emu)).toContain('PK');
    expect(held(emu)).not.toContain('KP');
    expect((await cli(emu, 'plan', 'groups', ['--detailed-exitcode'])).code).toBe(0);
  });

  it('changes a value\'s reason as the service\'s provider does: its own group deleted, then created again, nothing else touched', async () => {
    const emu = await emulator.start();
    policies = await policyDir({ 'shop.yaml': policy(COUNTRIES) });
    expect((await cli(emu, 'apply', 'groups', ['--auto-approve'])).code).toBe(0);
    const before = emu.control.state().ipObjects.filter((s) => s.unlistedFromMs === undefined).map((s) => s.record.id);
    await policies.write('shop.yaml', policy(COUNTRIES).replace('reason: scanners', 'reason: known scanners'));
    const applied = await cli(emu, 'apply', 'groups', ['--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const after = emu.control.state().ipObjects.filter((s) => s.unlistedFromMs === undefined);
    // The two subnets' groups replaced; every other group is the one it was.
    expect(before.filter((id) => !after.some((s) => s.record.id === id))).toHaveLength(2);
    expect(after.filter((s) => s.record.reason?.startsWith('known scanners'))).toHaveLength(2);
    expect((await cli(emu, 'plan', 'groups', ['--detailed-exitcode'])).code).toBe(0);
  });

  it('refuses to adopt a console group, naming the way out, and writes nothing', async () => {
    const emu = await emulator.start();
    emu.control.seedIpObject({ clientid: 10042, list: 'black', rule_type: 'country', values: ['KP', 'IR'], pools: [7], reason: 'console' });
    policies = await policyDir({ 'shop.yaml': `version: 1\nclient: 10042\napplication: 7\nip_lists:\n  deny:\n    - countries: [KP, IR]\n` });
    emu.control.resetCalls();
    const adopted = await cli(emu, 'apply', 'groups', ['--auto-approve', '--adopt']);
    expect(adopted.code).not.toBe(0);
    expect(adopted.stderr + adopted.stdout).toContain('Make this change with --ip-api v4 (both APIs show the same lists), then switch back');
    // Reads only (the rule and application listings are POSTs): no write.
    expect(emu.control.calls().filter((call) => call.method !== 'GET' && !['POST /v1/objects/hint', 'POST /v1/objects/pool'].includes(call.route))).toEqual([]);
    // On v4 the same adoption moves the values with no gap; the groups API then reads them as Rampart's.
    expect((await cli(emu, 'apply', 'v4', ['--auto-approve', '--adopt'])).code).toBe(0);
    expect((await cli(emu, 'plan', 'groups', ['--detailed-exitcode'])).code).toBe(0);
  });

  it('takes the API from the policies\' ip_api: when no flag names one, and refuses a flag that disagrees', async () => {
    const emu = await emulator.start();
    policies = await policyDir({ 'shop.yaml': `version: 1\nclient: 10042\napplication: 7\nip_api: groups\nip_lists:\n  deny:\n    - countries: [KP]\n` });
    const run = (args: string[]) => runCliInProcess(['plan', '--policies', 'policies', '--api-url', emu.url, ...args], { cwd: (policies as PolicyDir).root });
    const planned = await run([]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('IP lists read and written through the groups API');
    expect(emu.control.count('GET /v1/blocklist/clients/{clientid}/groups')).toBe(3);
    expect(emu.control.count('GET /v4/ip_rules')).toBe(0);
    const refused = await run(['--ip-api', 'v4']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--ip-api v4 \(or RAMPART_IP_API\) is given, but policies\/shop\.yaml:4:\d+ says ip_api: groups.*\[usage\]/);
    await policies.write('other.yaml', 'version: 1\nclient: 10042\napplication: 8\nip_api: v4\n');
    const conflict = await run([]);
    expect(conflict.code).toBe(1);
    expect(conflict.stdout + conflict.stderr).toMatch(/policies\/shop\.yaml:4:\d+: .*ip_api: groups here, but policies\/other\.yaml:4 says v4|policies\/other\.yaml:4:\d+.*ip_api: v4 here, but policies\/shop\.yaml:4 says groups/);
  });

  it('finds what a create made by reading again when groups appear late', async () => {
    const emu = await emulator.start({ listingLagMs: 300 });
    policies = await policyDir({ 'shop.yaml': policy(['KP']) });
    const applied = await cli(emu, 'apply', 'groups', ['--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(emu.control.calls().filter((call) => call.route === 'GET /v1/blocklist/clients/{clientid}/groups').length).toBeGreaterThan(3);
  });

  it('names the values still missing after the settle time, and the next run does not create them twice', async () => {
    const emu = await emulator.start({ listingLagMs: 2500 });
    policies = await policyDir({ 'shop.yaml': `version: 1\nclient: 10042\napplication: 7\nip_lists:\n  deny:\n    - countries: [KP]\n` });
    const applied = await cli(emu, 'apply', 'groups', ['--auto-approve', '--settle-timeout', '1s']);
    expect(applied.code).not.toBe(0);
    expect(applied.stderr + applied.stdout).toMatch(/created KP in the deny list of client 10042, but the list does not show it after 1 s/);
    emu.control.setConfig({ listingLagMs: 0 });
    emu.control.advanceClock(3);
    // Listed now: the plan finds it by its mark, and creates nothing.
    const rerun = await cli(emu, 'plan', 'groups', ['--detailed-exitcode']);
    expect(rerun.code, rerun.stdout).toBe(0);
    expect(emu.control.count('POST /v1/blocklist/clients/{clientid}/access_rules')).toBe(1);
  });

  it('refuses a create the service answers 409 with the values and the list, never retrying', async () => {
    const emu = await emulator.start();
    policies = await policyDir({ 'shop.yaml': `version: 1\nclient: 10042\napplication: 8\nip_lists:\n  deny:\n    - countries: [KP]\n` });
    // Another writer listed the value between the plan's read and the create.
    emu.control.addFault({ route: 'POST /v1/blocklist/clients/{clientid}/access_rules', kind: 'status', status: 409, count: 5 });
    const applied = await cli(emu, 'apply', 'groups', ['--auto-approve']);
    expect(applied.code).not.toBe(0);
    expect(applied.stderr + applied.stdout).toContain('the deny list of client 10042 already holds KP in another group (409)');
    expect(emu.control.count('POST /v1/blocklist/clients/{clientid}/access_rules')).toBe(1);
  });
});
