/**
 * A daemon whose token is refused stops retrying (no backoff storm against the
 * API), says why in /readyz, and resumes within one interval of the token file
 * changing. The real `rampart run`, spawned, against the emulator.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/daemon.js';
import { TEST_TOKEN, useTestEmulator } from '../../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';

const emulators = useTestEmulator();
let daemon: RunningCli | undefined;
let policies: PolicyDir | undefined;
afterEach(async () => {
  daemon?.kill('SIGTERM');
  await daemon?.result;
  await policies?.cleanup();
});

describe('a refused token', () => {
  it('stops the retries, is reported, and the daemon resumes once the token file changes', async () => {
    const emulator = await emulators.start();
    policies = await samplePolicyDir();
    const tokenFile = join(await tempDir('rampart-token-'), 'token');
    await writeFile(tokenFile, 'not-the-token\n');
    daemon = startCli(
      ['run', '--api-url', emulator.url, '--api-token-file', tokenFile, '--policies', policies.dir, '--interval', '1s', '--listen', '127.0.0.1:0'],
      { env: { RAMPART_API_TOKEN: undefined } },
    );
    const listening = await daemon.waitFor(/daemon endpoints listening/);
    const url = (JSON.parse(listening) as { url: string }).url;
    await daemon.waitFor(/still waiting for the policies or the credentials to change/, { timeoutMs: 10_000 });
    // One failed read (its listings, each refused once), then no call while waiting.
    const refusedCalls = emulator.control.calls().length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(emulator.control.calls().length).toBe(refusedCalls);
    const ready = await (await fetch(`${url}/readyz`)).json() as { status: string; reason: string };
    expect(ready.reason).toMatch(/the API refused the token: waiting for a change of the policy files or the credential files/);

    await writeFile(tokenFile, `${TEST_TOKEN}\n`);
    const changedAt = Date.now();
    await daemon.waitFor(/"result":"success"/, { timeoutMs: 10_000 });
    // Within one interval (1 s) of the change, plus the cycle itself (generous for a loaded machine).
    expect(Date.now() - changedAt).toBeLessThan(1_000 + 3_000);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 30_000);
});
