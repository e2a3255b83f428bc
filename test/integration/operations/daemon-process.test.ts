/**
 * The one spawned daemon of these features, for what only `rampart run`
 * wires: the token file re-read before each cycle (a rotated Secret, no
 * restart) and the pause file seen through the real watcher and flags.
 */
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanupDaemons, plainPolicyDir, runArgs, samplePolicies, startDaemon, startEmulatorForDaemon, tempDir, eventually, writeCalls,
} from '../../helpers/daemon.js';

afterEach(cleanupDaemons);

const OLD = 'old-token-0123456789';
const NEW = 'new-token-9876543210';

describe('rampart run: rotation and pause', () => {
  it('recovers from a rotated token without a restart, and holds writes while .rampart-pause is there', async () => {
    const emulator = await startEmulatorForDaemon({ token: NEW });
    const policies = await plainPolicyDir({ ...samplePolicies(), '.rampart-pause': 'change freeze\n' });
    // A Secret volume: token → ..data/token; an update swaps ..data.
    const secret = path.join(await tempDir('rampart-secret-'), 'secret');
    const publish = async (stamp: string, value: string) => {
      await mkdir(path.join(secret, stamp), { recursive: true });
      await writeFile(path.join(secret, stamp, 'token'), `${value}\n`);
      await symlink(stamp, path.join(secret, '..data_tmp'));
      await rename(path.join(secret, '..data_tmp'), path.join(secret, '..data'));
    };
    await publish('..2026_01_01_00_00_01.1', OLD);
    await symlink(path.join('..data', 'token'), path.join(secret, 'token'));

    const daemon = await startDaemon(runArgs(emulator.url, policies, ['--api-token-file', path.join(secret, 'token')]), { env: { RAMPART_API_TOKEN: undefined } });
    const failed = await daemon.waitForCycle(() => true, 'the first cycle', { timeoutMs: 15_000 });
    expect(failed.result).toBe('failed');

    await publish('..2026_01_01_00_00_02.2', NEW);
    const paused = await daemon.waitForCycle((c) => c.result === 'paused', 'a paused cycle with the new token', { timeoutMs: 15_000 });
    expect(paused.paused).toBe('change freeze');
    expect(daemon.logs().some((l) => l.msg === 'API credentials changed on disk; the new ones are used from the next call')).toBe(true);
    expect((await daemon.metrics()).value('rampart_paused')).toBe(1);
    expect((await daemon.get('/readyz')).json()).toMatchObject({ status: 'paused' });
    expect(writeCalls(emulator)).toEqual([]);

    await rm(path.join(policies, '.rampart-pause'));
    await daemon.waitForCycle((c) => c.result === 'success', 'the apply after the pause', { timeoutMs: 15_000 });
    await eventually(() => writeCalls(emulator).length > 0, 'writes');
    expect(daemon.logs().some((l) => l.msg === 'write' && l.cause === 'unknown')).toBe(true);
    const text = JSON.stringify(daemon.logs());
    expect(text).not.toContain(OLD);
    expect(text).not.toContain(NEW);
    const result = await daemon.stop();
    expect(result.code).toBe(0);
  });
});
