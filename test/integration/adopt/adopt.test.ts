/**
 * Taking over an account made in the console, as a user does it: export,
 * plan (no changes, one line about the unmanaged objects), adopt (in place:
 * no rule create, no delete), then manage (removing an entry deletes it).
 * Conflicts with unmanaged objects stop plan and apply with both objects
 * named and nothing written; `--adopt` resolves them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanDocument } from '../../../src/plan/types.js';
import { CLIENT, CONSOLE_IP_VALUES, CONSOLE_RULES, consoleAccount, instance, parseJson, seedConsoleObjects, type ConsoleAccount } from './console-account.js';

const MARK = /\[managed-by:rampart fp:[0-9a-f]{16}( name:[^\s\]]+)?( adopted:1)?\]$/;
let account: ConsoleAccount;
afterEach(async () => account?.close());

describe('export → plan → adopt → manage', () => {
  it('takes over the console-made objects in place, after which removing one from the files deletes it', async () => {
    account = await consoleAccount();
    seedConsoleObjects(account.emulator);
    const before = new Map(account.hints().map((h) => [h.id, h]));

    const exported = await account.rampart(['export', '--client', String(CLIENT), '--out', 'policies']);
    expect(exported.code, exported.stderr).toBe(0);

    const planned = await account.rampart(['plan', '--policies', 'policies', '--detailed-exitcode']);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout).toContain('No changes');
    // One line for all of them, not one per object.
    expect(planned.stdout).toContain(`${CONSOLE_RULES + CONSOLE_IP_VALUES} declared objects are held by unmanaged objects`);
    expect(planned.stdout).not.toContain('satisfied by unmanaged id');
    const json = parseJson<PlanDocument>(await account.rampart(['plan', '--policies', 'policies', '--format', 'json']));
    expect(json.unmanaged).toHaveLength(CONSOLE_RULES + CONSOLE_IP_VALUES);
    expect(json.summary).toMatchObject({ create: 0, update: 0, delete: 0, adopt: 0 });

    // What adoption would do, reviewable: adoptions only, nothing written yet.
    const preview = parseJson<PlanDocument>(await account.rampart(['plan', '--policies', 'policies', '--adopt', '--format', 'json']));
    expect(preview.changes.map((c) => c.action)).toEqual(preview.changes.map(() => 'adopt'));
    expect(preview.summary).toMatchObject({ create: 0, delete: 0, adopt: CONSOLE_RULES + CONSOLE_IP_VALUES });
    expect(account.writes()).toEqual([]);

    const adopted = await account.rampart(['adopt', '--policies', 'policies', '--settle-timeout', '5s']);
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect(adopted.stdout).toContain(`${CONSOLE_RULES + CONSOLE_IP_VALUES} to adopt`);
    const writes = account.writes();
    expect(writes.filter((w) => w === 'PUT /v3/hint/{id}')).toHaveLength(CONSOLE_RULES);
    expect(writes.filter((w) => w !== 'PUT /v3/hint/{id}' && w !== 'POST /v4/ip_rules')).toEqual([]);
    // Rules kept their ids and their user's comment; the mark is appended, and says Rampart adopted them.
    const ours = account.hints().filter((h) => !h.comment?.includes('team-b'));
    expect(ours).toHaveLength(CONSOLE_RULES);
    for (const hint of ours) {
      expect(before.has(hint.id)).toBe(true);
      expect(hint.comment).toMatch(MARK);
      expect(hint.comment).toContain(' adopted:1]');
    }
    expect(ours.find((h) => h.type === 'vpatch')?.comment).toMatch(/^the old admin panel \[managed-by:rampart /);
    expect(account.hints().find((h) => h.comment?.includes('team-b'))?.comment).toBe('made by team b [managed-by:team-b]');
    // IP values were overwritten in place (forced), each now carrying the mark, none twice.
    const objects = account.ipObjects();
    expect(objects.every((o) => MARK.test(o.reason ?? ''))).toBe(true);
    expect(objects.flatMap((o) => (o.rule_type === 'ip_range' ? [o.subnet] : o.source_values ?? [])).sort()).toEqual(['192.0.2.10/32', '203.0.113.0/24', 'IR', 'KP']);
    expect(objects.find((o) => o.subnet === '192.0.2.10/32')?.reason).toMatch(/^office \[managed-by:rampart /);

    account.emulator.control.resetCalls();
    const after = await account.rampart(['plan', '--policies', 'policies', '--detailed-exitcode']);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).not.toContain('held by unmanaged objects');

    // Now Rampart's: removing entries from the files deletes them.
    const app7 = join(account.root, 'policies', 'app-7.yaml');
    const text = await readFile(app7, 'utf8');
    await writeFile(app7, text.replace(/\n {4}- ips: \[203\.0\.113\.0\/24\]\n {6}reason: scanner farm/, ''));
    expect(await readFile(app7, 'utf8')).not.toContain('203.0.113.0');
    const applied = await account.rampart(['apply', '--policies', 'policies', '--settle-timeout', '5s']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete');
    expect(account.writes()).toEqual(['DELETE /v4/ip_rules']);
    expect(account.ipObjects().some((o) => o.subnet === '203.0.113.0/24')).toBe(false);
  });

  it('apply --adopt from a saved plan applies the adoptions it reviewed', async () => {
    account = await consoleAccount();
    seedConsoleObjects(account.emulator);
    expect((await account.rampart(['export', '--client', String(CLIENT), '--out', 'policies'])).code).toBe(0);
    const without = await account.rampart(['plan', '--policies', 'policies', '--out', 'plain.json']);
    expect(without.code).toBe(0);
    const mixed = await account.rampart(['apply', '--policies', 'policies', '--plan', 'plain.json', '--adopt']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('plain.json was made without --adopt');
    const saved = await account.rampart(['plan', '--policies', 'policies', '--adopt', '--out', 'plan.json', '--detailed-exitcode']);
    expect(saved.code).toBe(2);
    const applied = await account.rampart(['apply', '--policies', 'policies', '--plan', 'plan.json', '--settle-timeout', '5s']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(account.hints().filter((h) => MARK.test(h.comment ?? ''))).toHaveLength(CONSOLE_RULES);
    expect(account.writes().filter((w) => w === 'POST /v1/objects/hint/create' || w.startsWith('DELETE') || w.endsWith('/delete'))).toEqual([]);
  });
});

describe('saying what will not happen', () => {
  it('an exported unmanaged object removed from the files is named as staying, not "No changes"', async () => {
    account = await consoleAccount();
    seedConsoleObjects(account.emulator);
    expect((await account.rampart(['export', '--client', String(CLIENT), '--out', 'policies'])).code).toBe(0);
    const vpatch = account.hints().find((h) => h.type === 'vpatch' && h.comment === 'the old admin panel');
    const app7 = join(account.root, 'policies', 'app-7.yaml');
    const text = await readFile(app7, 'utf8');
    const without = text.replace(/ {2}- name: the-old-admin-panel-[0-9a-f]+\n[\s\S]*?(?= {2}- name:)/, '');
    expect(without).not.toContain('the old admin panel');
    await writeFile(app7, without);

    const planned = await account.rampart(['plan', '--policies', 'policies', '--detailed-exitcode']);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout).not.toContain('The account matches the policies');
    expect(planned.stdout).toContain(`1 exported object is no longer declared but stays in the account: Rampart does not manage it, so nothing deletes it (rule #${vpatch?.id})`);
    expect(planned.stdout).toContain('declare it again, run `rampart adopt`, then remove it');
    const json = parseJson<PlanDocument>(await account.rampart(['plan', '--policies', 'policies', '--format', 'json']));
    expect(json.left_unmanaged).toEqual([{ kind: 'rule', client: CLIENT, id: vpatch?.id, file: join('policies', 'app-7.yaml') }]);

    // Declared again and adopted, its removal is a delete.
    await writeFile(app7, text);
    expect((await account.rampart(['adopt', '--policies', 'policies', '--settle-timeout', '5s'])).code).toBe(0);
    await writeFile(app7, without);
    const after = parseJson<PlanDocument>(await account.rampart(['plan', '--policies', 'policies', '--format', 'json']));
    expect(after.left_unmanaged).toEqual([]);
    expect(after.changes).toEqual([expect.objectContaining({ action: 'delete', kind: 'rule', id: vpatch?.id, reason: 'not-declared' })]);
  });
});

describe('conflicts with unmanaged objects', () => {
  const modePolicy = ['version: 1', `client: ${CLIENT}`, 'application: 8', 'mode: block', ''].join('\n');

  it('a one-per-scope rule held unmanaged with other values: both named, exit 1, nothing written; --adopt updates it in place', async () => {
    account = await consoleAccount();
    const console = account.emulator.control.seedHint({ clientid: CLIENT, type: 'service_mode', mode: 'monitoring', action: [instance(8)], comment: 'set by ops' });
    await writeFile(join(account.root, 'app-8.yaml'), modePolicy);
    const args = ['--policies', 'app-8.yaml'];

    for (const command of ['plan', 'apply']) {
      const refused = await account.rampart([command, ...args]);
      expect(refused.code).toBe(1);
      expect(refused.stdout).not.toContain('No changes');
      expect(refused.stderr).toContain('app-8.yaml:4:1: rule mode');
      expect(refused.stderr).toContain(`unmanaged rule id ${console.id}`);
      expect(refused.stderr).toContain('[unmanaged_conflict]');
    }
    expect(account.writes()).toEqual([]);

    const adopted = await account.rampart(['apply', '--adopt', '--settle-timeout', '5s', ...args]);
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect(account.writes()).toEqual(['PUT /v3/hint/{id}']);
    const [mode] = account.hints();
    expect(account.hints()).toHaveLength(1);
    expect(mode).toMatchObject({ id: console.id, mode: 'block' });
    expect(mode?.comment).toMatch(MARK);
    const clean = await account.rampart(['plan', ...args, '--detailed-exitcode']);
    expect(clean.code, clean.stdout).toBe(0);
  });

  it('a value held unmanaged in another list: both named, exit 1, nothing written; --adopt moves it', async () => {
    account = await consoleAccount();
    const allowed = account.emulator.control.seedIpObject({ clientid: CLIENT, list: 'white', rule_type: 'ip_range', values: ['198.51.100.7/32'], pools: [7] });
    await writeFile(join(account.root, 'app-7.yaml'), ['version: 1', `client: ${CLIENT}`, 'application: 7', 'ip_lists:', '  deny:', '    - ips: [198.51.100.7]', ''].join('\n'));
    const args = ['--policies', 'app-7.yaml'];

    for (const command of ['plan', 'apply']) {
      const refused = await account.rampart([command, ...args]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/app-7\.yaml:6:\d+: ip ip_lists\.deny\[0\]/);
      expect(refused.stderr).toContain(`held unmanaged in the allow list (id ${allowed.id})`);
    }
    expect(account.writes()).toEqual([]);

    const moved = await account.rampart(['apply', '--adopt', '--settle-timeout', '5s', ...args]);
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/- allow list, ip_range \(1 value\) {2}moved; object #\d+\n {10}values: +198\.51\.100\.7\/32\n/);
    expect(account.writes()).toEqual(['POST /v4/ip_rules', 'DELETE /v4/ip_rules']);
    expect(account.ipObjects().map((o) => [o.list, o.subnet])).toEqual([['black', '198.51.100.7/32']]);
    const clean = await account.rampart(['plan', ...args, '--detailed-exitcode']);
    expect(clean.code, clean.stdout).toBe(0);
  });

  it('a holder with values no policy declares is never deleted to move one, even with --adopt', async () => {
    account = await consoleAccount();
    account.emulator.control.seedIpObject({ clientid: CLIENT, list: 'gray', rule_type: 'country', values: ['KP', 'IR'], pools: [7] });
    await writeFile(join(account.root, 'app-7.yaml'), ['version: 1', `client: ${CLIENT}`, 'application: 7', 'ip_lists:', '  deny:', '    - countries: [KP]', ''].join('\n'));
    const refused = await account.rampart(['apply', '--adopt', '--policies', 'app-7.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('which also holds IR, declared nowhere in that list');
    expect(account.writes()).toEqual([]);
  });

  it('a holder denying a value account-wide is never deleted to allow it for one application, even with --adopt', async () => {
    account = await consoleAccount();
    const denied = account.emulator.control.seedIpObject({ clientid: CLIENT, list: 'black', rule_type: 'ip_range', values: ['198.51.100.7/32'], pools: [0] });
    await writeFile(join(account.root, 'app-7.yaml'), ['version: 1', `client: ${CLIENT}`, 'application: 7', 'ip_lists:', '  allow:', '    - ips: [198.51.100.7]', ''].join('\n'));
    const refused = await account.rampart(['apply', '--adopt', '--policies', 'app-7.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`held unmanaged in the deny list by id ${denied.id} for all applications`);
    expect(refused.stderr).not.toContain('Run with --adopt');
    expect(account.writes()).toEqual([]);
    expect(account.ipObjects().map((o) => [o.id, o.list])).toEqual([[denied.id, 'black']]);
  });
});
