/**
 * The memory of the last converged cycle (audit/converged-memory.ts) is written
 * when what the policies declare changed, not by every cycle in step: at 10k
 * rules + 50k IP values each write was a 1.4 MB file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import type { DeclaredFingerprints } from '../../../src/audit/cause.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { silentLogger } from '../../../src/log.js';
import { createCycle } from '../../../src/reconcile/cycle.js';
import { runSettings } from '../../../src/reconcile/settings.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const shop = (paths: readonly string[]) => `version: 1\nclient: 10042\napplication: 7\nrules:\n${paths
  .map((path) => `  - name: block-${path}\n    type: vpatch\n    attack: sqli\n    point: [[get, id]]\n    when:\n      - { point: [path, 0], equal: ${path} }\n`)
  .join('')}ip_lists:\n  deny:\n    - ips: [198.51.100.7]\n`;

describe('a daemon cycle and the converged memory', () => {
  let emulator: TestEmulator | undefined;
  let policies: PolicyDir | undefined;
  afterEach(async () => {
    await emulator?.close();
    await policies?.cleanup();
  });

  /** A cycle whose memory records every save asked for, and fails the ones `fails` names (by their order). */
  async function daemonCycle(fails: ReadonlySet<number> = new Set()) {
    emulator = await startTestEmulator();
    policies = await policyDir({ 'shop.yaml': shop(['admin']) });
    const asked: DeclaredFingerprints[] = [];
    const http = new ApiClient({ baseUrl: emulator.url, credentials: { token: TEST_TOKEN } });
    const cycle = createCycle({
      policies: policies.dir, api: new ServiceApi(http), journal: new WriteJournal(120_000),
      settings: runSettings({ settleTimeoutMs: 5_000 }),
      memory: { load: async () => undefined, save: async (declared) => !fails.has(asked.push(declared)) },
    });
    const run = async (n: number) => (await cycle({ cycleId: String(n), reasons: ['resync'], signal: new AbortController().signal, logger: silentLogger() })).result;
    return { asked, run, close: () => http.close() };
  }

  it('writes it when the declarations change, and leaves it alone while cycles stay in step', async () => {
    const { asked: saved, run, close } = await daemonCycle();
    try {
      expect(await run(1)).toBe('success');
      expect(saved).toHaveLength(1);
      expect(saved[0]?.rules.size).toBe(1);
      expect(saved[0]?.ip.size).toBe(1);
      expect(await run(2)).toBe('no-op');
      expect(await run(3)).toBe('no-op');
      expect(saved).toHaveLength(1);

      await policies?.write('shop.yaml', shop(['admin', 'debug']));
      expect(await run(4)).toBe('success');
      expect(saved).toHaveLength(2);
      expect(saved[1]?.rules.size).toBe(2);
      expect(await run(5)).toBe('no-op');
      expect(saved).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it('tries again after a write that failed, with the declarations it found before (not hashed again)', async () => {
    const { asked, run, close } = await daemonCycle(new Set([1]));
    try {
      expect(await run(1)).toBe('success');
      expect(asked).toHaveLength(1);
      expect(await run(2)).toBe('no-op');
      expect(asked).toHaveLength(2);
      // The same policy files: the cycle reused what it found, the very same value.
      expect(asked[1]).toBe(asked[0]);
      expect(await run(3)).toBe('no-op');
      expect(asked).toHaveLength(2);
    } finally {
      await close();
    }
  });
});
