/**
 * Break-glass: a `.rampart-pause` file, or `POST /pause` with the admin token,
 * keeps the daemon from writing while it still plans and reports; metrics,
 * /readyz, /plan and the logs say so; removing it resumes at once.
 */
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLIENT, cleanupDaemons, isOwned, liveHints, plainPolicyDir, samplePolicies, startEmulatorForDaemon, tempDir, writeCalls,
} from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';

afterEach(cleanupDaemons);

describe('break-glass pause', () => {
  it('a .rampart-pause file: plans and reports, never writes; its removal resumes without a resync', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir({ ...samplePolicies(), '.rampart-pause': 'incident 4711: hot-fix in the console\n' });
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies });
    const paused = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(paused).toMatchObject({ result: 'paused', paused: 'incident 4711: hot-fix in the console' });
    expect(daemon.logs().some((l) => l.msg === 'paused: planning and reporting only, nothing is written')).toBe(true);
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'paused', 'a paused resync', { after: 1 });
    expect(writeCalls(emulator)).toEqual([]);

    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_paused')).toBe(1);
    expect(metrics.value('rampart_paused_since_timestamp_seconds')).toBeGreaterThan(0);
    expect(metrics.value('rampart_plan_pending_changes', { action: 'create' })).toBeGreaterThan(0);
    const ready = await daemon.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'paused', paused: { reason: 'incident 4711: hot-fix in the console', by: path.join(await realpath(policies), '.rampart-pause') } });
    const plan = (await daemon.get('/plan')).json();
    expect(plan.cycle).toMatchObject({ result: 'paused', status: 'paused' });
    expect(plan.changes.length).toBeGreaterThan(0);

    // Removing the file is a change the watcher sees: the next cycle writes.
    const cycles = daemon.cycles().length;
    await rm(path.join(policies, '.rampart-pause'));
    const resumed = await daemon.waitForCycle(() => true, 'the cycle after the removal', { after: cycles });
    expect(resumed.result).toBe('success');
    expect(daemon.logs().some((l) => l.msg === 'pause lifted: writes resume')).toBe(true);
    expect((await daemon.metrics()).value('rampart_paused')).toBe(0);
    expect(writeCalls(emulator).length).toBeGreaterThan(0);
    await daemon.stop();
  });

  it('a paused cycle counts an update as an update, in the log and in rampart_plan_pending_changes', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    const cycles = daemon.cycles().length;
    await writeFile(path.join(policies, '.rampart-pause'), 'freeze\n');
    const shop = path.join(policies, 'shop.yaml');
    await writeFile(shop, (await readFile(shop, 'utf8')).replace('mode: monitoring', 'mode: block'));
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'paused', 'the paused cycle', { after: cycles });
    const metrics = await daemon.metrics();
    expect(metrics.value('rampart_plan_pending_changes', { action: 'update' })).toBe(1);
    expect(metrics.value('rampart_plan_pending_changes', { action: 'create' })).toBe(0);
    await daemon.stop();
  });

  it('POST /pause with the admin token holds writes until DELETE /pause; without the token it is refused', async () => {
    const emulator = await startEmulatorForDaemon();
    const policies = await plainPolicyDir(samplePolicies());
    const tokenFile = path.join(await tempDir(), 'admin-token');
    await writeFile(tokenFile, 'first-admin-token\n');
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies, adminTokenFile: tokenFile });
    await daemon.waitForCycle((c) => c.result === 'success', 'the initial apply');
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'no-op', 'a quiet resync', { after: 1 });
    const post = (token: string | undefined, body: unknown, method = 'POST') => fetch(`${daemon.url}/pause`, {
      method, body: method === 'POST' ? JSON.stringify(body) : undefined,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

    expect((await post(undefined, { reason: 'x' })).status).toBe(401);
    expect((await post('wrong-token', { reason: 'x' })).status).toBe(401);
    // The token file is read per request: a rotated Secret takes effect without a restart.
    await writeFile(tokenFile, 'second-admin-token\n');
    expect((await post('first-admin-token', { reason: 'x' })).status).toBe(401);
    const cycles = daemon.cycles().length;
    const answer = await post('second-admin-token', { reason: 'incident 99' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ paused: true, reason: 'incident 99', by: 'endpoint' });
    await daemon.waitForCycle((c) => c.result === 'paused', 'the cycle the pause asked for', { after: cycles });

    // A console delete while paused is not repaired.
    const victim = liveHints(emulator).find((h) => h.type === 'regex' && isOwned(h.comment))!;
    await emulator.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [CLIENT], id: victim.id } });
    const writesBefore = writeCalls(emulator).length;
    const before = daemon.cycles().length;
    daemon.resync();
    await daemon.waitForCycle((c) => c.result === 'paused', 'a paused resync', { after: before });
    expect(writeCalls(emulator).length).toBe(writesBefore);
    expect((await daemon.get('/readyz')).json()).toMatchObject({ status: 'paused', paused: { reason: 'incident 99', by: 'endpoint' } });

    const lifted = daemon.cycles().length;
    expect((await post('second-admin-token', undefined, 'DELETE')).status).toBe(200);
    await daemon.waitForCycle((c) => c.result === 'success', 'the repair after the pause', { after: lifted });
    const repair = daemon.logs().filter((l) => l.msg === 'write').at(-1);
    expect(repair).toMatchObject({ action: 'create', cause: 'drift' });
    await daemon.stop();
  });
});
