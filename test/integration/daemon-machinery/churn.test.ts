/**
 * The daemon's churn breaker, one cycle at a time in process (the real cycle,
 * the real emulator over HTTP): a rule that never sticks is created, created
 * once more, and then held: no further create, result `churn`, the gauge up,
 * one clear log line.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { DaemonMetrics } from '../../../src/daemon/metrics.js';
import type { CycleOutcome } from '../../../src/reconcile/outcome.js';
import { createCycle } from '../../../src/reconcile/cycle.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, yaml, type PolicyDir } from '../../helpers/policies.js';
import { runSettings } from '../../../src/reconcile/settings.js';
import { ReconcileLoop } from '../../../src/daemon/loop.js';

const CLIENT = 10042;
const CREATE = 'POST /v1/objects/hint/create';

describe('churn breaker in the daemon cycle', () => {
  let emulator: TestEmulator;
  let http: ApiClient;
  let policies: PolicyDir;
  beforeEach(async () => {
    emulator = await startTestEmulator();
    http = new ApiClient({ baseUrl: emulator.url, credentials: { token: TEST_TOKEN } });
    policies = await policyDir({
      'shop.yaml': yaml`
        version: 1
        client: ${CLIENT}
        application: 7
        rules:
          - name: never-sticks
            type: vpatch
            attack: any
            point: [[get, debug]]
      `,
    });
  });
  afterEach(async () => {
    await http.close();
    await emulator.close();
    await policies.cleanup();
  });

  it('creates, re-creates once, then holds the object and says so', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
    const metrics = new DaemonMetrics({ processMetrics: false });
    const cycle = createCycle({
      policies: policies.dir, api: new ServiceApi(http), journal: new WriteJournal(0), settings: runSettings({ concurrency: 4, settleTimeoutMs: 0 }),
    });
    /** The service drops the rule right after it is made (the kind of thing the breaker exists for). */
    const dropRules = async () => {
      const ids = emulator.control.state().hints.filter((h) => h.unlistedFromMs === undefined).map((h) => h.record.id);
      if (ids.length) await emulator.call('POST', '/v1/objects/hint/delete', { filter: { clientid: [CLIENT], id: ids } });
    };
    // Through the loop, which alone turns outcomes into metrics.
    const loop = new ReconcileLoop({ cycle, intervalMs: 60_000, logger, metrics });
    const run = async (): Promise<CycleOutcome> => loop.runOnce(new AbortController().signal, 'resync');

    const results: string[] = [];
    for (let n = 1; n <= 4; n++) {
      results.push((await run()).result);
      await dropRules();
    }
    expect(results).toEqual(['success', 'success', 'churn', 'churn']);
    expect(emulator.control.count(CREATE)).toBe(2);
    expect((await metrics.expose()).body).toMatch(/^rampart_churn_held_objects 1$/m);
    const churn = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('churn:'));
    expect(churn).toEqual([expect.objectContaining({ kind: 'rule', name: 'never-sticks', line: 5, cycles: 3 })]);
  });
});
