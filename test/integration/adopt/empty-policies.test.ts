/**
 * An empty policy directory in the daemon: not ready, with the reason, and
 * nothing read or written for it; `--allow-empty` makes it a valid, empty
 * desired state. (`plan`/`apply` are in test/integration/apply/apply.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupDaemons } from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';
import { useTestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const emulators = useTestEmulator();
let policies: PolicyDir | undefined;
afterEach(async () => {
  await cleanupDaemons();
  await policies?.cleanup();
  policies = undefined;
});

describe('the daemon on an empty policy directory', () => {
  it('stays not ready with the reason and calls nothing', async () => {
    const emulator = await emulators.start();
    policies = await policyDir({ 'empty.yaml': '# nothing yet\n' });
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: policies.dir });
    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first.result).toBe('invalid');
    expect(JSON.stringify(first.err)).toContain('declares nothing');
    const ready = await daemon.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json().reason).toContain('declares nothing');
    expect(emulator.control.calls()).toEqual([]);
  });

  it('with --allow-empty it is ready and still writes nothing', async () => {
    const emulator = await emulators.start();
    policies = await policyDir({});
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: policies.dir, allowEmpty: true });
    const first = await daemon.waitForCycle(() => true, 'the first cycle');
    expect(first.result).toBe('no-op');
    expect((await daemon.get('/readyz')).status).toBe(200);
    expect(emulator.control.calls().filter((c) => c.method !== 'GET' && !/\/hint$/.test(c.path))).toEqual([]);
  });
});
