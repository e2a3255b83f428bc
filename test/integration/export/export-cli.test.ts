/**
 * `rampart export` as users run it (the CLI's main, in process) against an
 * emulator seeded with every kind of object, then `validate` and `plan
 * --detailed-exitcode` on the output: clean, and no changes. Once per IP-list
 * granularity. The spawned export is in test/integration/plan/deadline.test.ts.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';

const CLIENT = 10042;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command in this process (test/helpers/cli-in-process.ts), with a clean environment plus `env`. */
async function rampart(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { code, stdout, stderr } = await runCliInProcess(args, { env: { RAMPART_API_TOKEN: undefined, ...env } });
  return { code, stdout, stderr };
}

const instance = (app: number) => ({ point: ['instance'], type: 'equal', value: String(app) });
const YEAR = 365 * 24 * 3600;

function seed(emulator: TestEmulator, granularity: 'per-value' | 'per-request'): void {
  const c = emulator.control;
  const hint = (fields: Record<string, unknown>) => c.seedHint({ clientid: CLIENT, type: 'vpatch', ...fields });
  // Application 7: a vpatch with a path condition, a regex, a conditioned mode and the app's mode.
  hint({ type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'], action: [instance(7), { point: ['path', 0], type: 'equal', value: 'admin' }], comment: 'the old admin panel is gone for good' });
  hint({ type: 'regex', attack_type: 'scanner', regex: '.*curltool.*', point: ['header', 'USER-AGENT'], action: [instance(7)] });
  hint({ type: 'regex', attack_type: 'scanner', regex: '.*curltool.*', point: ['header', 'USER-AGENT'], action: [instance(7)], comment: 'a duplicate the server kept' });
  hint({ type: 'service_mode', mode: 'block', action: [{ point: ['path', 0], type: 'equal', value: 'admin' }, instance(7)] });
  hint({ type: 'service_mode', mode: 'monitoring', action: [instance(7)] });
  // Application 8: uri regex + method, iequal on a header, get, and the same vpatch as app 7.
  hint({ type: 'vpatch', attack_type: 'sqli', point: ['get', 'q'], action: [instance(8), { point: ['uri'], type: 'regex', value: '^/v[0-9]+/search' }, { point: ['method'], type: 'equal', value: 'GET' }] });
  hint({ type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'], action: [instance(8), { point: ['header', 'host'], type: 'iequal', value: 'Legacy.Example.COM' }] });
  hint({ type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'], action: [instance(8), { point: ['path', 0], type: 'equal', value: 'admin' }], comment: 'the old admin panel is gone for good' });
  hint({ type: 'service_mode', mode: 'safe_blocking', action: [instance(8), { point: ['get', 'debug'], type: 'equal', value: '1' }], comment: 'debug switch' });
  // Account-wide: absent header, a nested point, a mode on a query key.
  hint({ type: 'vpatch', attack_type: 'any', point: ['get', 'debug'], action: [{ point: ['header', 'X-DEBUG'], type: 'absent', value: null }] });
  hint({ type: 'regex', attack_type: 'ptrav', regex: '\\.\\./', point: ['post', 'json_doc', 'hash', 'password'], action: [], comment: 'Ünïcode & "quotes": kept as written' });
  hint({ type: 'service_mode', mode: 'off', action: [{ point: ['header', 'X-HEALTH'], type: 'equal', value: 'true' }] });
  // Left out: ours, another owner's, unmappable, and a type Rampart does not manage.
  hint({ type: 'vpatch', attack_type: 'xss', point: ['get', 'owned'], action: [instance(7)], comment: 'created by rampart [managed-by:rampart name:owned-xss-probe]' });
  hint({ type: 'vpatch', attack_type: 'xss', point: ['get', 'other'], action: [instance(7)], comment: '[managed-by:team-b]' });
  hint({ type: 'vpatch', attack_type: 'any', point: ['uri'], action: [instance(7), instance(8)] });
  hint({ type: 'disable_stamp', stamp: 1234, action: [instance(7)] });

  const now = Math.floor(c.nowMs() / 1000);
  const later = now - (now % 3600) + YEAR;
  const ip = (values: string[], fields: Record<string, unknown>) => {
    const groups = granularity === 'per-value' ? values.map((v) => [v]) : [values];
    for (const group of groups) {
      c.seedIpObject({ clientid: CLIENT, values: group, ...fields });
    }
  };
  ip(['203.0.113.0/24'], { list: 'black', rule_type: 'ip_range', pools: [7], reason: 'scanner farm', expired_at: later });
  ip(['198.51.100.7/32'], { list: 'black', rule_type: 'ip_range', pools: [7], reason: 'scanner farm', expired_at: later });
  ip(['2001:db8::/48'], { list: 'black', rule_type: 'ip_range', pools: [8] });
  ip(['192.0.2.10/32'], { list: 'white', rule_type: 'ip_range', pools: [0], reason: 'office' });
  ip(['KP', 'IR'], { list: 'black', rule_type: 'country', pools: [7, 8] });
  ip(['hetzner', 'ovh'], { list: 'black', rule_type: 'datacenter', pools: [0], reason: 'no customers run from datacenters' });
  ip(['TOR'], { list: 'black', rule_type: 'proxy_type', pools: [0] });
  ip(['VPN', 'PUB'], { list: 'gray', rule_type: 'proxy_type', pools: [0], expired_at: later + 3600 });
  ip(['DE'], { list: 'gray', rule_type: 'country', pools: [8], reason: 'review' });
  ip(['198.51.100.99/32'], { list: 'black', rule_type: 'ip_range', pools: [7], reason: 'bot [managed-by:rampart]' });
}

for (const granularity of ['per-value', 'per-request'] as const) {
  describe(`rampart export (${granularity} IP objects)`, () => {
    let emulator: TestEmulator;
    let dir: string;
    let env: Record<string, string>;
    let first: Run;

    beforeAll(async () => {
      emulator = await startTestEmulator({ ipGranularity: granularity });
      seed(emulator, granularity);
      dir = await mkdtemp(join(tmpdir(), 'rampart-export-'));
      env = { RAMPART_API_URL: emulator.url, RAMPART_API_TOKEN: TEST_TOKEN };
      first = await rampart(['export', '--client', String(CLIENT), '--out', join(dir, 'out')], env);
    }, 60_000);

    afterAll(async () => {
      await emulator?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('writes one file per application, one for several, one account-wide', async () => {
      expect(first.stderr).not.toContain('"level":50');
      expect(first.code).toBe(0);
      expect((await readdir(join(dir, 'out'))).sort()).toEqual(['.rampart-export.json', 'account-wide.yaml', 'app-7.yaml', 'app-8.yaml', 'apps-7-8.yaml']);
      const app7 = parse(await readFile(join(dir, 'out', 'app-7.yaml'), 'utf8'));
      expect(app7).toMatchObject({ version: 1, client: CLIENT, application: 7, mode: 'monitoring' });
      // The owned vpatch is part of the mirror.
      expect(app7.rules.map((r: { type: string }) => r.type)).toEqual(['vpatch', 'vpatch', 'regex', 'mode']);
      expect(app7.ip_lists.deny).toEqual([
        { ips: ['198.51.100.7', '203.0.113.0/24'], reason: 'scanner farm', expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/) },
        { ips: ['198.51.100.99'], reason: 'bot' },
      ]);
      const multi = parse(await readFile(join(dir, 'out', 'apps-7-8.yaml'), 'utf8'));
      expect(multi).toMatchObject({ application: [7, 8], ip_lists: { deny: [{ countries: ['IR', 'KP'] }] } });
      expect(multi.rules).toBeUndefined();
      const wide = parse(await readFile(join(dir, 'out', 'account-wide.yaml'), 'utf8'));
      expect(wide.application).toBe('all');
      expect(wide.rules.find((r: { type: string }) => r.type === 'regex')).toMatchObject({
        point: [['post'], ['json_doc'], ['hash', 'password']],
        comment: 'Ünïcode & "quotes": kept as written',
      });
      expect(wide.ip_lists.gray).toEqual([{ proxies: ['PUB', 'VPN'], expires: expect.any(String) }]);
    });

    it('keeps the schema modeline, drops owner marks and gives shared rules the same name', async () => {
      const texts = await Promise.all(['app-7.yaml', 'app-8.yaml', 'account-wide.yaml'].map((f) => readFile(join(dir, 'out', f), 'utf8')));
      for (const text of texts) {
        expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*schemas\/policy\.schema\.json$/);
        expect(text).not.toContain('[managed-by:');
      }
      const name = /name: (the-old-admin-panel-is-gone-for-good-[0-9a-f]{6})/;
      expect(name.exec(texts[0] as string)?.[1]).toBeDefined();
      expect(name.exec(texts[0] as string)?.[1]).toBe(name.exec(texts[1] as string)?.[1]);
      const app8 = parse(texts[1] as string);
      expect(app8.rules.flatMap((r: { when?: unknown[] }) => r.when ?? [])).toContainEqual({ point: ['header', 'HOST'], iequal: 'legacy.example.com' });
    });

    it('reports what it left out and why', () => {
      expect(first.stdout).not.toContain('managed by this owner');
      expect(first.stdout).toMatch(/rule id \d+: managed by another owner: managed by another owner, "team-b"/);
      expect(first.stdout).toMatch(/rule id \d+: no policy file can express it: it has 2 instance conditions/);
      expect(first.stdout).toMatch(/rule id \d+: duplicate: the same rule as id \d+/);
      expect(first.stdout).not.toContain('planned alone, Rampart would delete those objects');
    });

    it('is a faithful mirror: validates clean, and plan on the output alone shows no changes and deletes nothing', async () => {
      const validate = await rampart(['validate', '--policies', join(dir, 'out')]);
      expect(validate.stdout + validate.stderr).not.toMatch(/error/i);
      expect(validate.code).toBe(0);
      const app7 = await readFile(join(dir, 'out', 'app-7.yaml'), 'utf8');
      expect(app7).toContain('comment: created by rampart\n');
      // A managed rule keeps the name its policy gave it (its owner mark says it); the others get generated ones.
      expect(app7).toMatch(/- name: owned-xss-probe\n/);
      // Already in fmt's form, with a modeline that resolves on any machine.
      const fmt = await rampart(['fmt', '--check', '--policies', join(dir, 'out')]);
      expect(fmt.code, fmt.stdout + fmt.stderr).toBe(0);
      expect(app7.split('\n')[0]).toBe('# yaml-language-server: $schema=https://raw.githubusercontent.com/rampart-dev/rampart/main/schemas/policy.schema.json');
      const plan = await rampart(['plan', '--policies', join(dir, 'out'), '--detailed-exitcode', '--format', 'json'], env);
      expect(plan.stderr).not.toContain('"level":50');
      expect(JSON.parse(plan.stdout).summary).toMatchObject({ create: 0, update: 0, delete: 0, replace: 0 });
      expect(plan.code).toBe(0);
    }, 30_000);

    it('--exclude-owned leaves our objects out, for planning next to the policies that declare them', async () => {
      const out = join(dir, 'excluded');
      const run = await rampart(['export', '--client', String(CLIENT), '--out', out, '--exclude-owned'], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/rule id \d+: managed by this owner/);
      expect(run.stdout).toMatch(/IP object id \d+ \(198\.51\.100\.99\/32\): managed by this owner/);
      expect(run.stdout).toContain('planned alone, Rampart would delete those objects');
      // The next step it gives is not the plan it has just warned about.
      expect(run.stdout).toMatch(/^Next: move the files into your policy directory, beside the policies that declare those 2 objects/m);
      expect(run.stdout).not.toContain(`rampart plan --policies ${out}`);
      const alone = await rampart(['plan', '--policies', out, '--detailed-exitcode', '--format', 'json'], env);
      expect(alone.code).toBe(2);
      expect(JSON.parse(alone.stdout).summary).toMatchObject({ create: 0, delete: 2 });

      // The objects Rampart owns are declared by the user's existing policies.
      await writeFile(join(out, 'existing.yaml'), [
        'version: 1', `client: ${CLIENT}`, 'application: 7',
        'rules:', '  - { name: owned, type: vpatch, attack: xss, point: [[get, owned]], comment: created by rampart }',
        'ip_lists:', '  deny:', '    - { ips: [198.51.100.99], reason: bot }', '',
      ].join('\n'));
      const together = await rampart(['plan', '--policies', out, '--detailed-exitcode', '--format', 'json'], env);
      expect(together.stderr).not.toContain('"level":50');
      expect(JSON.parse(together.stdout).summary).toMatchObject({ create: 0, delete: 0 });
      expect(together.code).toBe(0);
    }, 30_000);

    it('is deterministic: a second export writes the same bytes', async () => {
      const again = await rampart(['export', '--client', String(CLIENT), '--out', join(dir, 'again')], env);
      expect(again.code).toBe(0);
      for (const file of await readdir(join(dir, 'out'))) {
        const a = await readFile(join(dir, 'out', file), 'utf8');
        const b = await readFile(join(dir, 'again', file), 'utf8');
        expect(b).toBe(a);
      }
    }, 30_000);

    it('--include-owned is still accepted (deprecated) and writes the default mirror', async () => {
      const out = join(dir, 'owned');
      const run = await rampart(['export', '--client', String(CLIENT), '--out', out, '--include-owned', '--format', 'json'], env);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('--include-owned is deprecated');
      const report = JSON.parse(run.stdout);
      expect(report.skipped.map((s: { reason: string }) => s.reason)).not.toContain('owned');
      for (const file of await readdir(join(dir, 'out'))) {
        expect(await readFile(join(out, file), 'utf8')).toBe(await readFile(join(dir, 'out', file), 'utf8'));
      }
    }, 30_000);

    it('never writes to the account', () => {
      // The listings that are POSTs: rules and applications.
      const writes = emulator.control.calls().filter((call) => call.method !== 'GET' && !/\/v1\/objects\/(hint|pool)$/.test(call.path));
      expect(writes).toEqual([]);
    });
  });
}
