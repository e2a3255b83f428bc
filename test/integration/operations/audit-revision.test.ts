/**
 * What an operator reads off the daemon: one `write` line per write with why
 * (drift or intent) and the git-sync commit it came from; the revision on
 * /readyz, /plan and the info metric. In process, against the emulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLIENT, cleanupDaemons, edit, gitSyncTree, isOwned, liveHints, samplePolicies, samplePolicy, startEmulatorForDaemon, type LogLine,
} from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';

afterEach(cleanupDaemons);

const writesOf = (lines: readonly LogLine[]) => lines.filter((line) => line.msg === 'write');

describe('the audit trail and the live revision', () => {
  it('logs each write with its revision and cause, tells drift from intent, and reports the commit everywhere', async () => {
    const emulator = await startEmulatorForDaemon();
    const files = samplePolicies();
    const tree = gitSyncTree(files);
    const { policies, commit } = await tree;
    const first = await commit(files);
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies });
    const initial = await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    expect(initial.revision).toBe(first);

    // Every write of the first cycle is there, with where it came from; a fresh process has no memory: unknown.
    const firstWrites = writesOf(daemon.logs());
    expect(firstWrites.length).toBe(emulator.control.count('POST /v1/objects/hint/create') + emulator.control.count('POST /v4/ip_rules'));
    expect(firstWrites.every((w) => w.revision === first && w.cause === 'unknown' && w.status === 'applied')).toBe(true);
    const created = firstWrites.find((w) => w.name === 'curltool-scanner')!;
    expect(created).toMatchObject({ action: 'create', kind: 'rule', client: CLIENT, application: 7, file: expect.stringMatching(/policies\/shop\.yaml$/), line: expect.any(Number), id: expect.any(Number) });
    expect(liveHints(emulator).some((h) => h.id === created.id)).toBe(true);

    const ready = (await daemon.get('/readyz')).json();
    expect(ready).toMatchObject({ status: 'ready', revision: first, lastCycle: { result: 'success', status: 'applied', revision: { revision: first, source: 'git-sync' } } });
    expect((await daemon.metrics()).value('rampart_policy_revision_info', { revision: first, source: 'git-sync' })).toBe(1);

    // A quiet resync first: the journal forgets writes the listing has shown.
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'no-op', 'a quiet resync', { after: 1 });

    // Drift: the rule is deleted in the console, the policies stay; the repair says so.
    const victim = liveHints(emulator).find((h) => h.id === created.id)!;
    expect(isOwned(victim.comment)).toBe(true);
    await emulator.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [CLIENT], id: victim.id } });
    let seen = daemon.logs().length;
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'success', 'the repair', { after: 2 });
    const repair = writesOf(daemon.logs().slice(seen));
    expect(repair).toEqual([expect.objectContaining({ action: 'create', name: 'curltool-scanner', cause: 'drift', revision: first })]);

    // Intent: a commit changes the rule's comment; its replacement says which field and why.
    seen = daemon.logs().length;
    const cyclesBefore = daemon.cycles().length;
    const second = await commit({ ...files, 'shop.yaml': edit(samplePolicy('shop.yaml'), 'comment: flags a known scanner', 'comment: flags a known scanner (ticket 42)') });
    const changed = await daemon.waitForCycle((c) => c.result === 'success', 'the commit applied', { after: cyclesBefore });
    expect(changed.revision).toBe(second);
    const intent = writesOf(daemon.logs().slice(seen));
    expect(intent.length).toBeGreaterThan(0);
    expect(intent.every((w) => w.cause === 'intent' && w.revision === second)).toBe(true);
    expect(intent.find((w) => w.action !== 'delete')).toMatchObject({ name: 'curltool-scanner', fields: ['comment'] });

    const plan = (await daemon.get('/plan')).json();
    expect(plan.cycle).toMatchObject({ id: expect.any(String), status: 'applied', revision: { revision: second } });
    expect(Date.parse(plan.cycle.finishedAt)).toBeGreaterThan(0);
    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_policy_revision_info', { revision: second })).toBe(1);
    expect(metrics.value('rampart_policy_revision_info', { revision: first })).toBeUndefined();
    expect(metrics.sum('rampart_writes_by_cause_total', { cause: 'drift' })).toBe(1);
    expect(metrics.sum('rampart_writes_by_cause_total', { cause: 'intent' })).toBe(intent.filter((w) => w.status === 'applied').length);
    await daemon.stop();
  });
});
