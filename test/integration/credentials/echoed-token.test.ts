/**
 * A server or proxy that echoes the token (and secret) in an error body: the
 * values never reach the CLI's error line, its logs, or the daemon's /readyz.
 * The plan runs the CLI's main in this process, the daemon its cycle, logger and
 * endpoints in this process (test/helpers/daemon-in-process.ts): neither needs a
 * process of its own to show what it writes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { cleanupDaemons, LIST_HINTS, plainPolicyDir, samplePolicies, startEmulatorForDaemon, eventually } from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';
import { TEST_TOKEN, useTestEmulator } from '../../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';

const SECRET = 'echoed-secret-5521';
const emulator = useTestEmulator();
let policies: PolicyDir | undefined;
afterEach(async () => {
  await policies?.cleanup();
  policies = undefined;
  await cleanupDaemons();
});

describe('a token echoed in an error body', () => {
  it('plan: the error names the failure, not the token or the secret', async () => {
    const { url, control } = await emulator.start({ secret: SECRET });
    control.addFault({ route: LIST_HINTS, kind: 'echo-token', status: 401, count: 10 });
    policies = await samplePolicyDir();
    const result = await runCliInProcess(['plan', '--api-url', url, '--policies', policies.dir, '--log-level', 'debug'], {
      env: { RAMPART_API_SECRET: SECRET },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/token \[redacted\] rejected.*\[api_auth\]/);
    expect(result.stderr).not.toContain(TEST_TOKEN);
    expect(result.stderr).not.toContain(SECRET);
    expect(result.stdout).not.toContain(TEST_TOKEN);
  });

  it('run: neither the log lines nor the unauthenticated /readyz carry it', async () => {
    const emu = await startEmulatorForDaemon();
    emu.control.addFault({ route: LIST_HINTS, kind: 'echo-token', status: 400, count: 1000 });
    const dir = await plainPolicyDir(samplePolicies());
    const daemon = await startInProcessDaemon({ apiUrl: emu.url, policies: dir });
    await daemon.waitForCycle((line) => line.result === 'failed', 'a failed cycle');
    const ready = await eventually(async () => {
      const answer = await daemon.get('/readyz');
      return answer.status === 503 && answer.text.includes('failed') ? answer : undefined;
    }, '/readyz reporting the failed cycle');
    expect(ready.text).toContain('[redacted]');
    expect(ready.text).not.toContain(TEST_TOKEN);
    const logs = daemon.logs().map((line) => JSON.stringify(line)).join('\n');
    expect(logs).toContain('[redacted]');
    expect(logs).not.toContain(TEST_TOKEN);
  });
});
