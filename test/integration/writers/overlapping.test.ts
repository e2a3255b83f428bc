/**
 * Two writers of one owner at once: each plans from the same empty account and
 * creates everything, so the account holds it all twice until each run's check
 * after its writes deletes the copies it did not keep (the lowest id stays).
 * Scripted interleavings in process (two applies; an apply and a daemon
 * cycle), then two real CLI processes at once.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import { applyPlan } from '../../../src/apply/apply.js';
import type { ApplyReport } from '../../../src/apply/results.js';
import { loadDesired, prepare } from '../../../src/reconcile/prepare.js';
import { createCycle } from '../../../src/reconcile/cycle.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { silentLogger } from '../../../src/log.js';
import { TEST_TOKEN } from '../../helpers/emulator.js';
import { eventually } from '../../helpers/eventually.js';
import { expectNoDuplicates, SAMPLE_IP_VALUES, SAMPLE_RULES, useSampleSetup, type Harness } from '../apply/harness.js';
import { runSettings } from '../../../src/reconcile/settings.js';

const setup = useSampleSetup();

/** One writer: its own connection, its plan made now, its apply run when told. */
async function writer(harness: Harness, policies: string) {
  const http = new ApiClient({ baseUrl: harness.emulator.url, credentials: { token: TEST_TOKEN } });
  const api = new ServiceApi(http);
  const { plan } = await prepare({ policies, policy: await loadDesired({ policies }), api, settings: runSettings() });
  return {
    plan,
    apply: async (): Promise<ApplyReport> => {
      try {
        return await applyPlan(plan, { api, settleTimeoutMs: 10_000, settleIntervalMs: 20 });
      } finally {
        await http.close();
      }
    },
  };
}

const copiesDeleted = (report: ApplyReport) => report.concurrentCopies.length;

/** Listing calls the emulator answered: a plan's read of the sample account makes the same number each time. */
const LISTING_ROUTES = ['POST /v1/objects/hint', 'GET /v4/ip_rules'];
const listingReads = (harness: Harness) => harness.emulator.control.calls().filter((call) => LISTING_ROUTES.includes(call.route)).length;

describe('overlapping writers', () => {
  it.each([
    ['at the same time', async (a: () => Promise<ApplyReport>, b: () => Promise<ApplyReport>) => Promise.all([a(), b()])],
    ['one after the other, the second from a stale plan', async (a: () => Promise<ApplyReport>, b: () => Promise<ApplyReport>) => [await a(), await b()]],
    ['the second finishing first', async (a: () => Promise<ApplyReport>, b: () => Promise<ApplyReport>) => {
      const second = await b();
      return [await a(), second];
    }],
  ] as const)('two applies planned alike, applied %s, leave no duplicate and touch nothing else', async (_how, order) => {
    // The service drops a newer one-per-scope duplicate on its own: the copy kept must be the one it keeps (no gap).
    const harness = await setup.start({ listingLagMs: 300, dropScopeDuplicates: true });
    harness.emulator.control.seedHint({ clientid: 10042, type: 'vpatch', attack_type: 'xss', point: ['get', 'console'], comment: 'made in the console' });
    const first = await writer(harness, setup.policies.dir);
    const second = await writer(harness, setup.policies.dir);
    expect(first.plan.summary.create).toBeGreaterThan(0);
    expect(second.plan.summary.create).toBe(first.plan.summary.create);
    const reports = await order(first.apply, second.apply);
    for (const report of reports) expect(report.failed, JSON.stringify(report.results)).toBe(0);
    // Every object was created twice; the copies went in the same runs.
    expect(reports.map(copiesDeleted).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES + 1, ipValues: SAMPLE_IP_VALUES });
    expect(harness.hints().some((hint) => hint.comment === 'made in the console')).toBe(true);
  });

  it('an apply overlapping a daemon cycle leaves no duplicate, and the cycle reports the writer it saw', async () => {
    // Listings lag writes, so the cycle reads the account as empty while the apply writes it.
    const harness = await setup.start({ listingLagMs: 300 });
    const apply = await writer(harness, setup.policies.dir);
    const http = new ApiClient({ baseUrl: harness.emulator.url, credentials: { token: TEST_TOKEN } });
    try {
      const cycle = createCycle({
        policies: setup.policies.dir, api: new ServiceApi(http), journal: new WriteJournal(120_000), settings: runSettings({ settleTimeoutMs: 10_000 }),
      });
      // The apply planned before the cycle wrote, and writes once the cycle has read the account (as empty:
      // whatever the apply writes is listed 300 ms later). Both then write everything.
      const readsOfOnePlan = listingReads(harness);
      expect(readsOfOnePlan).toBeGreaterThan(0);
      const cycled = cycle({ cycleId: 'c1', reasons: ['initial'], signal: new AbortController().signal, logger: silentLogger() });
      await eventually(() => listingReads(harness) >= 2 * readsOfOnePlan, 'the cycle read the account', 10_000, 5);
      const [outcome, report] = await Promise.all([cycled, apply.apply()]);
      expect(outcome.result, String(outcome.error)).toBe('success');
      expect(report.failed).toBe(0);
      const seen = Object.values(outcome.concurrentCopies ?? {}).reduce((a, b) => a + b, 0) + copiesDeleted(report);
      expect(seen).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    } finally {
      await http.close();
    }
  });

  it('two CLI processes applying at once leave no duplicate', async () => {
    const harness = await setup.start();
    const args = ['--settle-timeout', '10s', '--format', 'json'];
    const [a, b] = await Promise.all([harness.start('apply', setup.policies.dir, args).result, harness.start('apply', setup.policies.dir, args).result]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    expect(expectNoDuplicates(harness)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
    const noticed = [a, b].flatMap((run) => run.logs.filter((line) => String(line.msg).startsWith('another writer of owner "rampart"')));
    const audited = [a, b].flatMap((run) => run.logs.filter((line) => line.msg === 'write' && line.cause === 'concurrent-writer'));
    // Whether the two overlapped depends on the scheduler; when they did, it was said and audited.
    expect(audited.length > 0).toBe(noticed.length > 0);
  }, 30_000);
});
