/**
 * `run --adopt`: the daemon takes over the unmanaged objects the policies
 * declare in its first cycle (in place, no rule create, no delete); without
 * the flag it leaves them unmanaged, and a conflict fails the cycle without a write.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupDaemons } from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';
import { CLIENT, consoleAccount, instance, seedConsoleObjects, WRITE_ROUTES, type ConsoleAccount } from './console-account.js';

let account: ConsoleAccount;
afterEach(async () => {
  await cleanupDaemons();
  await account?.close();
});

describe('rampart run --adopt', () => {
  it('adopts in place on its first cycle; without --adopt nothing is written', async () => {
    account = await consoleAccount();
    seedConsoleObjects(account.emulator);
    expect((await account.rampart(['export', '--client', String(CLIENT), '--out', 'policies'])).code).toBe(0);
    const policies = join(account.root, 'policies');

    const plain = await startInProcessDaemon({ apiUrl: account.emulator.url, policies, settleTimeoutMs: 5000 });
    expect((await plain.waitForCycle(() => true, 'the first cycle')).result).toBe('no-op');
    await plain.stop();
    expect(account.writes()).toEqual([]);

    const adopting = await startInProcessDaemon({ apiUrl: account.emulator.url, policies, settleTimeoutMs: 5000, adopt: true });
    expect((await adopting.waitForCycle(() => true, 'the first cycle')).result).toBe('success');
    expect(account.writes().every((route) => route === 'PUT /v3/hint/{id}' || route === 'POST /v4/ip_rules')).toBe(true);
    expect(account.hints().filter((h) => /\[managed-by:rampart fp:/.test(h.comment ?? ''))).toHaveLength(3);
    adopting.resync();
    expect((await adopting.waitForCycle(() => true, 'the next cycle', { after: 1 })).result).toBe('no-op');
  });

  it('a conflict fails the cycle and writes nothing', async () => {
    account = await consoleAccount();
    account.emulator.control.seedHint({ clientid: CLIENT, type: 'service_mode', mode: 'monitoring', action: [instance(8)] });
    await writeFile(join(account.root, 'app-8.yaml'), ['version: 1', `client: ${CLIENT}`, 'application: 8', 'mode: block', ''].join('\n'));
    const daemon = await startInProcessDaemon({ apiUrl: account.emulator.url, policies: join(account.root, 'app-8.yaml') });
    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first.result).toBe('failed');
    expect(JSON.stringify(first.err)).toContain('unmanaged_conflict');
    expect(account.emulator.control.calls().filter((c) => WRITE_ROUTES.includes(c.route))).toEqual([]);
  });
});

describe('rampart run --adopt while the listings lag', () => {
  it('adopts once: the next cycles, with the listing still unmarked, write nothing more and create no duplicate', async () => {
    account = await consoleAccount({ ipGranularity: 'per-request' });
    seedConsoleObjects(account.emulator);
    expect((await account.rampart(['export', '--client', String(CLIENT), '--out', 'policies'])).code).toBe(0);
    account.emulator.control.setConfig({ listingLagMs: 4000 });
    account.emulator.control.resetCalls();
    const daemon = await startInProcessDaemon({ apiUrl: account.emulator.url, policies: join(account.root, 'policies'), settleTimeoutMs: 1, adopt: true });
    expect((await daemon.waitForCycle(() => true, 'the first cycle')).result).toBe('success');
    const adopted = account.writes();
    expect(adopted.every((route) => route === 'PUT /v3/hint/{id}' || route === 'POST /v4/ip_rules')).toBe(true);
    for (const after of [1, 2]) {
      daemon.resync();
      expect((await daemon.waitForCycle(() => true, `cycle ${after + 1}`, { after })).result).toBe('no-op');
    }
    expect(account.writes()).toEqual(adopted);
    const values = account.ipObjects().flatMap((o) => (o.rule_type === 'ip_range' ? [o.subnet] : (o.source_values ?? [])).map((v) => `${o.list} ${v}`));
    expect(values.sort()).toEqual([...new Set(values)].sort());
    expect(account.hints()).toHaveLength(4);
  });
});
