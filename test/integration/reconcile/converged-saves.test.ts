/**
 * A daemon cycle and the memory of the last converged cycle
 * (audit/converged-memory.ts): the file is written when what the policies
 * declare changed, not by every cycle in step (at 10k rules + 50k IP values
 * each write was a 1.4 MB file), and a cycle over the same policy files reuses
 * what it found they declare instead of hashing every declared value again.
 */
import { stat } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import type { DeclaredFingerprints } from '../../../src/audit/declared-fingerprints.js';
import { openConvergedMemory, type ConvergedMemory } from '../../../src/audit/converged-memory.js';
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
  let http: ApiClient | undefined;
  afterEach(async () => {
    await http?.close();
    await emulator?.close();
    await policies?.cleanup();
  });

  /** A cycle over a fresh account and one policy file, with `memory`. */
  async function daemonCycle(memory: (policies: PolicyDir) => ConvergedMemory) {
    emulator = await startTestEmulator();
    policies = await policyDir({ 'shop.yaml': shop(['admin']) });
    http = new ApiClient({ baseUrl: emulator.url, credentials: { token: TEST_TOKEN } });
    const cycle = createCycle({
      policies: policies.dir, api: new ServiceApi(http), journal: new WriteJournal(120_000),
      settings: runSettings({ settleTimeoutMs: 5_000 }), memory: memory(policies),
    });
    return async (n: number) => (await cycle({ cycleId: String(n), reasons: ['resync'], signal: new AbortController().signal, logger: silentLogger() })).result;
  }

  it('writes the file when the declarations change, and leaves it alone while cycles stay in step', async () => {
    let file = '';
    const run = await daemonCycle((dir) => openConvergedMemory((file = dir.scratch('memory.json')), 'rampart'));
    // Each write renames a new file over the old one: a new inode.
    const inode = async () => (await stat(file)).ino;
    expect(await run(1)).toBe('success');
    const first = await inode();
    expect(await run(2)).toBe('no-op');
    expect(await run(3)).toBe('no-op');
    expect(await inode()).toBe(first);

    await policies?.write('shop.yaml', shop(['admin', 'debug']));
    expect(await run(4)).toBe('success');
    const second = await inode();
    expect(second).not.toBe(first);
    expect((await openConvergedMemory(file, 'rampart').load())?.keys.rule.size).toBe(2);
    expect(await run(5)).toBe('no-op');
    expect(await inode()).toBe(second);
  });

  it('reuses, for the same policy files, the declarations it found before (the very same value, not hashed again)', async () => {
    const saved: DeclaredFingerprints[] = [];
    const run = await daemonCycle(() => ({ load: async () => undefined, save: async (declared) => void saved.push(declared) }));
    expect(await run(1)).toBe('success');
    expect(await run(2)).toBe('no-op');
    expect(saved).toHaveLength(2);
    expect(saved[1]).toBe(saved[0]);
    await policies?.write('shop.yaml', shop(['admin', 'debug']));
    expect(await run(3)).toBe('success');
    expect(saved[2]).not.toBe(saved[1]);
    expect(saved[2]?.keys.rule.size).toBe(2);
  });
});
