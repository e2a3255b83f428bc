/**
 * `rampart doctor` against the emulator: one line per read the policies need,
 * for each client they name; a right the token lacks (a 403 on one route) is
 * named on that read's line, with its code; nothing is written.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { TEST_TOKEN, useTestEmulator } from '../../helpers/emulator.js';
import { usePolicyDirs } from '../../helpers/policies.js';

const POLICY = `version: 1
client: 10042
application: all
rules:
  - name: search-stamp
    type: disable_stamp
    stamp: 7730
    point: [[get, q]]
`;

const emulator = useTestEmulator();
const dirs = usePolicyDirs();

async function doctor(url: string, args: string[] = [], token = TEST_TOKEN) {
  const policies = await dirs.make({ 'shop.yaml': POLICY });
  return runCliInProcess(['doctor', '--policies', 'policies', '--api-url', url, '--log-level', 'warn', ...args], { cwd: policies.root, env: { RAMPART_API_TOKEN: token } });
}

describe('rampart doctor', () => {
  it('tries each read once for each client, says every one works, and exits 0', async () => {
    const emu = await emulator.start();
    const result = await doctor(emu.url);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    for (const read of ['rules', 'credential-stuffing rules', 'IP lists', 'applications', 'hits']) {
      expect(lines.filter((line) => new RegExp(`^ok +client 10042 +${read} `).test(line)), read).toHaveLength(1);
    }
    expect(result.stdout).toContain('5 of 5 reads work.');
    expect(result.stdout).toContain('The policies declare 1 disable_stamp rule(s): creating them needs an extended admin token');
    const routes = emu.control.calls().map((call) => call.route).sort();
    expect(routes).toEqual(['GET /v4/clients/{clientid}/credential_stuffing/configs', 'GET /v4/ip_rules', 'POST /v1/objects/hint', 'POST /v1/objects/hit', 'POST /v1/objects/pool']);
  });

  it('names the read a token lacks the right for, with its code, and exits 1', async () => {
    const emu = await emulator.start();
    emu.control.addFault({ route: 'POST /v1/objects/hit', kind: 'status', status: 403, count: 10 });
    const result = await doctor(emu.url);
    expect(result.code).toBe(1);
    const hits = result.stdout.split('\n').find((line) => / hits /.test(line));
    expect(hits).toMatch(/^FAIL +client 10042 +hits +POST \/v1\/objects\/hit +\[api_auth\] the token lacks the right to read hits \(attacks\), for tune, plan --impact, apply --impact \(answered 403: Error\)$/);
    expect(result.stdout).toMatch(/^ok +client 10042 +rules /m);
    expect(result.stdout).toContain('4 of 5 reads work.');
    // Refusals are never retried: one call, and the fault is left for nobody else.
    expect(emu.control.count('POST /v1/objects/hit')).toBe(1);
    expect(emu.control.calls().filter((call) => call.method !== 'GET' && !/^POST \/v1\/objects\/(hint|hit|pool)$/.test(call.route))).toEqual([]);
  });

  it('says the same in JSON: each check with ok, and the missing right of a refused one', async () => {
    const emu = await emulator.start();
    emu.control.addFault({ route: 'POST /v1/objects/hit', kind: 'status', status: 403, count: 10 });
    const result = await doctor(emu.url, ['--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { passed: number; failed: number; checks: { read: string; ok: boolean; error?: { code: string; missing_right?: string } }[] };
    expect(report).toMatchObject({ passed: 4, failed: 1 });
    expect(report.checks.find((check) => check.read === 'hits')).toMatchObject({ ok: false, error: { code: 'api_auth', missing_right: 'read hits (attacks)' } });
    expect(report.checks.filter((check) => check.ok).map((check) => check.read)).toEqual(['rules', 'credential-stuffing rules', 'IP lists', 'applications']);
  });

  it('reports invalid policies as validate does, in the chosen format, and calls nothing', async () => {
    const emu = await emulator.start();
    const policies = await dirs.make({ 'shop.yaml': 'version: 1\nclient: not-a-number\n' });
    const result = await runCliInProcess(['doctor', '--policies', 'policies', '--api-url', emu.url, '--format', 'json'], { cwd: policies.root });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, diagnostics: expect.arrayContaining([expect.objectContaining({ file: 'policies/shop.yaml', line: 2, code: 'invalid-id' })]) as unknown });
    expect(emu.control.calls()).toEqual([]);
  });

  it('a refused token fails every read without calling it a missing right, and never shows the token', async () => {
    const emu = await emulator.start();
    const wrong = 'not-the-token-0123456789';
    const result = await doctor(emu.url, [], wrong);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('FAIL'));
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/\[api_auth\] .*answered 401/);
    expect(result.stdout).not.toContain('lacks the right');
    expect(result.stdout + result.stderr).not.toContain(wrong);
  });
});
