/**
 * The one-shot `apply`: its JSON report carries the audit record of each write
 * (the same fields as the daemon's `write` line) and the git commit of the
 * checkout; a `.rampart-pause` file makes it refuse, and `--dry-run` still plans.
 */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT, parseJson, useSampleSetup } from '../apply/harness.js';

const setup = useSampleSetup();

function gitCommitAll(dir: string): string {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'policies');
  return git('rev-parse', 'HEAD');
}

describe('apply: the audit record and the pause', () => {
  it('reports each write with file:line, ids, the commit, and why; an update of a changed declaration is intent', async () => {
    const harness = await setup.start();
    const { policies } = setup;
    const first = gitCommitAll(policies.root);
    const created = await harness.cli('apply', policies.dir, ['--format', 'json', '--settle-timeout', '10s']);
    expect(created.code, created.stderr).toBe(0);
    const report = parseJson<{ revision: string; results: Record<string, unknown>[] }>(created);
    expect(report.revision).toBe(first);
    const rule = report.results.find((r) => r.name === 'curltool-scanner');
    // A first apply cannot tell a new declaration from an object deleted in the console.
    expect(rule).toMatchObject({ action: 'create', kind: 'rule', client: CLIENT, application: 7, line: expect.any(Number), id: expect.any(Number), cause: 'unknown', revision: first, status: 'applied' });
    expect(String(rule?.file)).toMatch(/shop\.yaml$/);
    const ip = report.results.find((r) => r.kind === 'ip');
    expect(ip).toMatchObject({ values: expect.any(Array), ids: expect.any(Array) });
    // The log line says the same.
    expect(created.logs.filter((l) => l.msg === 'write')).toHaveLength(report.results.length);
    // Why no cause can be told is said once, before the writes, in the log and the report.
    const unknown = report.results.filter((r) => r.cause === 'unknown').length;
    const explained = created.logs.filter((l) => String(l.msg).startsWith('the cause of'));
    expect(explained).toHaveLength(1);
    expect(explained[0]).toMatchObject({ writes: unknown, msg: expect.stringContaining('no earlier converged run is remembered') });
    expect(created.logs.indexOf(explained[0] as (typeof created.logs)[number])).toBeLessThan(created.logs.findIndex((l) => l.msg === 'write'));
    expect(parseJson<{ unknown_cause?: string }>(created).unknown_cause).toMatch(/a new declaration and an object deleted outside Rampart look the same/);

    await policies.edit('shop.yaml', 'comment: flags a known scanner', 'comment: flags a known scanner (ticket 7)');
    const second = gitCommitAll(policies.root);
    const changed = await harness.cli('apply', policies.dir, ['--format', 'json', '--settle-timeout', '10s']);
    expect(changed.code, changed.stderr).toBe(0);
    const replaced = parseJson<{ results: Record<string, unknown>[] }>(changed).results;
    // The live copy's mark carries the old declaration's fingerprint: the policies changed.
    expect(replaced.map((r) => [r.action, r.cause, r.revision])).toEqual([['update', 'intent', second]]);
    expect(replaced[0]).toMatchObject({ name: 'curltool-scanner', fields: ['comment'], id: rule?.id });
  });

  it('with a journal, remembers the converged state: a rule deleted in the console comes back as drift, a new declaration as intent', async () => {
    const harness = await setup.start();
    const { policies } = setup;
    const journal = policies.scratch('journal.json');
    const apply = async () => {
      const run = await harness.cli('apply', policies.dir, ['--journal', journal, '--format', 'json', '--settle-timeout', '10s']);
      expect(run.code, run.stderr).toBe(0);
      return parseJson<{ results: Record<string, unknown>[] }>(run).results;
    };
    const deleteInConsole = (id: unknown) => harness.emulator.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [CLIENT], id } });

    const scanner = (await apply()).find((r) => r.name === 'curltool-scanner');
    expect(scanner?.cause).toBe('unknown');

    // The write journal would stand in for the deleted rule for a while (a create not listed yet looks the same): start without it.
    await rm(journal, { force: true });
    await deleteInConsole(scanner?.id);
    await policies.edit('shop.yaml', /^rules:\n/m, 'rules:\n  - { name: new-patch, type: vpatch, attack: xss, point: [[get, fresh]] }\n');
    const second = await apply();
    expect(Object.fromEntries(second.map((r) => [r.name, r.cause]))).toEqual({ 'curltool-scanner': 'drift', 'new-patch': 'intent' });

    // A lost memory loses causes, nothing else: the next such write is unknown again.
    await rm(`${journal}.converged.json`);
    await rm(journal, { force: true });
    await deleteInConsole(second.find((r) => r.name === 'new-patch')?.id);
    expect((await apply()).map((r) => [r.name, r.cause])).toEqual([['new-patch', 'unknown']]);
  });

  it('refuses while .rampart-pause is present, naming the reason; --dry-run and plan still work', async () => {
    const harness = await setup.start();
    const { policies } = setup;
    await policies.write('.rampart-pause', 'incident 12: leave the console fix alone');
    const refused = await harness.cli('apply', policies.dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\.rampart-pause pauses every write .*incident 12: leave the console fix alone/);
    expect(harness.writes()).toEqual([]);

    const dryRun = await harness.cli('apply', policies.dir, ['--dry-run']);
    expect(dryRun.code).toBe(0);
    const plan = await harness.cli('plan', policies.dir);
    expect(plan.code).toBe(0);
    expect(plan.logs.some((l) => l.level === 40 && String(l.msg).includes('.rampart-pause is present'))).toBe(true);
    expect(harness.writes()).toEqual([]);
  });
});
