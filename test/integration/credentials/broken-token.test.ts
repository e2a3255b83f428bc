/**
 * A token that cannot be sent as a header (a control character inside) is a
 * usage error before anything starts, for every command that connects: never
 * a silent exit 0, never a daemon stuck in its first cycle. The token itself is
 * never printed. The daemon (`run` without `--once`) is a spawned process (a
 * daemon stuck in its first cycle shows only there); the others, `run --once`
 * among them, run the CLI's main in process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { useTestEmulator } from '../../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';

const emulator = useTestEmulator();
let policies: PolicyDir | undefined;
afterEach(async () => {
  await policies?.cleanup();
  policies = undefined;
});

const BROKEN = 'tok-SECRETPART\x01tail';

describe('a token with a control character', () => {
  it.each([
    [['plan', '--detailed-exitcode']],
    [['apply']],
    [['run', '--once']],
    [['run', '--listen', '127.0.0.1:0']],
    [['export', '--client', '10042', '--out', 'EXPORT_DIR']],
  ])('%j exits 1 with a usage error naming the problem', async (args) => {
    const { url } = await emulator.start();
    policies = await samplePolicyDir();
    const argv = args[0] === 'export'
      ? args.map((arg) => (arg === 'EXPORT_DIR' ? policies!.scratch('export') : arg))
      : [...args, '--policies', policies.dir];
    const runner = args.includes('--listen') ? runCli : runCliInProcess;
    const result = await runner([...argv, '--api-url', url], {
      env: { RAMPART_API_TOKEN: BROKEN },
      timeoutMs: 15_000,
    });
    expect(result.signal, 'the process had to be killed').toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/API token holds a character that cannot be sent in an HTTP header \(U\+0001 at character 15\).*\[usage\]/);
    expect(result.stderr).not.toContain('SECRETPART');
    expect(result.stdout).toBe('');
    expect(emulator.current().control.calls()).toEqual([]);
  });

  it('a token file whose only control character is its last newline works', async () => {
    const { url } = await emulator.start();
    policies = await samplePolicyDir();
    const tokenFile = await policies.write('../token', 'test-token-0123456789\n');
    const result = await runCliInProcess(['plan', '--api-url', url, '--policies', policies.dir, '--api-token-file', tokenFile], {
      env: { RAMPART_API_TOKEN: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
  });
});
