/**
 * The image holds no policies (test/deploy/dockerfile.test.ts): `rampart run`
 * with neither --policies nor RAMPART_POLICIES, and no ./policies, must refuse
 * to start with a clear message and exit 1, not wait forever or reconcile a
 * sample. A directory that was named is still waited for (git-sync creates it
 * after the first checkout), so that case never gives this refusal.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli-in-process.js';

let empty: string | undefined;
afterEach(async () => {
  if (empty) await rm(empty, { recursive: true, force: true });
  empty = undefined;
});

describe('rampart run without policies', () => {
  it('refuses to start when none was named and ./policies is absent', async () => {
    empty = await mkdtemp(join(tmpdir(), 'rampart-nopolicies-'));
    const result = await runCliInProcess(['run', '--emulator', '--listen', '127.0.0.1:0'], { cwd: empty });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rampart: no policy directory: \.\/policies does not exist and neither --policies nor RAMPART_POLICIES is set\. .*RAMPART_POLICIES=\/policies\) \[usage\]$/m);
    expect(result.logs.filter((line) => line.msg === 'rampart run starting')).toEqual([]);
  });

  it('a named directory that does not exist yet is not refused at start (git-sync makes it later)', async () => {
    empty = await mkdtemp(join(tmpdir(), 'rampart-nopolicies-'));
    const result = await runCliInProcess(['run', '--once', '--emulator', '--listen', '127.0.0.1:0'], {
      cwd: empty, env: { RAMPART_POLICIES: join(empty, 'not-yet') },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('no policy directory:');
    expect(result.logs.some((line) => line.msg === 'rampart run starting')).toBe(true);
  });
});
