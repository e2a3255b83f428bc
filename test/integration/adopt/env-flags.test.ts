/**
 * `RAMPART_ADOPT` and `RAMPART_ALLOW_EMPTY` are read by their value: `false`
 * or `0` leaves the flag off (the option parser alone would turn a boolean
 * flag on whenever its variable is set, whatever it says).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { CLIENT, consoleAccount, instance, parseJson, type ConsoleAccount } from './console-account.js';

let account: ConsoleAccount;
afterEach(async () => {
  await account?.close();
});

const run = (args: readonly string[], env: Record<string, string>) =>
  runCliInProcess(args, { cwd: account.root, env: { RAMPART_API_URL: account.emulator.url, RAMPART_SETTLE_TIMEOUT: undefined, ...env } });

describe('boolean flags from the environment', () => {
  it('RAMPART_ADOPT=false or 0 adopts nothing; true or 1 adopts; another value is a usage error', async () => {
    account = await consoleAccount();
    account.emulator.control.seedHint({ clientid: CLIENT, type: 'service_mode', mode: 'block', action: [instance(8)] });
    await writeFile(join(account.root, 'app-8.yaml'), ['version: 1', `client: ${CLIENT}`, 'application: 8', 'mode: block', ''].join('\n'));
    const plan = (value: string) => run(['plan', '--policies', 'app-8.yaml', '--format', 'json'], { RAMPART_ADOPT: value });
    for (const off of ['false', '0', 'no', '']) {
      const result = await plan(off);
      expect(result.code, `${off}: ${result.stderr}`).toBe(0);
      expect(parseJson<{ summary: { adopt: number } }>(result).summary.adopt, off).toBe(0);
    }
    for (const on of ['true', '1', 'TRUE']) {
      const result = await plan(on);
      expect(result.code, `${on}: ${result.stderr}`).toBe(0);
      expect(parseJson<{ summary: { adopt: number } }>(result).summary.adopt, on).toBe(1);
    }
    const bad = await plan('maybe');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('RAMPART_ADOPT');
    expect(account.writes()).toEqual([]);
  });

  it('RAMPART_ALLOW_EMPTY=false on an empty policy directory is still an error', async () => {
    account = await consoleAccount();
    await mkdir(join(account.root, 'empty'));
    const off = await run(['plan', '--policies', 'empty'], { RAMPART_ALLOW_EMPTY: 'false' });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('no_policies');
    const on = await run(['plan', '--policies', 'empty'], { RAMPART_ALLOW_EMPTY: 'true' });
    expect(on.code, on.stderr).toBe(0);
  });
});
