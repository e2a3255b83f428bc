/**
 * A bad flag of `run` or `apply` is a usage error that ends the process: never
 * an internal error, never a process left running with the embedded emulator
 * listening (and the first SIGTERM swallowed by the shutdown handler).
 * The first case runs the built CLI as a process, which must end by itself; the
 * others run its main in this process (test/helpers/cli-in-process.ts), where
 * "ends" means main returns with no server left listening.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { plainPolicyDir, samplePolicies, tempDir } from '../../helpers/daemon.js';

describe('bad flags end the process with a usage error', () => {
  const listening = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;
  it.each([
    [['run', '--interval', '0'], /--interval must be between 1s and 24d/],
    // Past Node's timer limit: it overflowed into a resync loop.
    [['run', '--interval', '30d'], /--interval must be between 1s and 24d, got "30d"/],
    [['plan', '--timeout', '30d'], /--timeout must be between 100ms and 24d \(or 0 for no deadline\)/],
    [['run', '--settle-timeout', 'soon'], /invalid duration "soon"/],
    [['run', '--journal', 'JOURNAL_UNDER_A_FILE'], /journal file .*ENOTDIR/],
    [['apply', '--settle-timeout', 'soon'], /invalid duration "soon"/],
  ])('%j', async (args, message) => {
    const inProcess = args.join(' ') !== 'run --interval 0';
    const policies = await plainPolicyDir(samplePolicies());
    const file = path.join(await tempDir(), 'file');
    await writeFile(file, 'not a directory');
    const argv = args.map((arg) => (arg === 'JOURNAL_UNDER_A_FILE' ? path.join(file, 'journal') : arg));
    const servers = listening();
    const cliArgs = [...argv, '--emulator', '--policies', policies, '--log-format', 'json'];
    const result = inProcess ? await runCliInProcess(cliArgs) : await runCli(cliArgs, { timeoutMs: 10_000 });
    expect(result.signal, 'the process had to be killed').toBeNull();
    await new Promise((resolve) => setImmediate(resolve)); // a closed server's handle goes a turn later
    expect(listening(), 'a server left listening').toBe(servers);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('internal error');
    // Nothing is planned before the flags are known to be good.
    expect(result.stdout).toBe('');
  });
});
