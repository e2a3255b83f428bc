/**
 * `rampart apply` against a misbehaving service: each scripted fault kind on
 * the write routes. Every test checks the emulator's real state: converged,
 * and never a duplicate.
 */
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions, FaultSpec } from '../../../src/emulator/index.js';
import {
  CREATE_HINT, CREATE_IP, DELETE_HINT, DELETE_IP, expectNoDuplicates, parseJson, SAMPLE_IP_VALUES, SAMPLE_RULES,
  useSampleSetup,
} from './harness.js';

const setup = useSampleSetup();
const start = (options: Partial<EmulatorOptions> = {}) => setup.start(options);

/**
 * Where the write never happened, the listing check waits out the whole settle
 * timeout before the repeat; a short one keeps those cases quick (the emulator
 * lists at once unless a case adds lag).
 */
const SHORT_SETTLE = '300ms';

const apply = (args: string[] = []) => setup.harness.cli('apply', setup.policies.dir, ['--settle-timeout', '3s', ...args]);

describe('faults on the write routes', () => {
  const cases: { name: string; faults: FaultSpec[]; args?: string[]; emulator?: Partial<EmulatorOptions>; detail?: string }[] = [
    // Retry-After: 0, "at once": that the wait it names is kept is '429 waits for Retry-After' below.
    { name: '429 with Retry-After', faults: [{ route: CREATE_HINT, kind: 'status', status: 429, retryAfterSeconds: 0, count: 2 }] },
    { name: '423 locked', faults: [{ route: CREATE_HINT, kind: 'status', status: 423, count: 3 }] },
    // A 503 may follow a committed write: each is looked for in the listing (up to the settle timeout) before the repeat.
    { name: '503', faults: [{ route: CREATE_IP, kind: 'status', status: 503, count: 3 }, { route: CREATE_HINT, kind: 'status', status: 503, count: 2 }], args: ['--settle-timeout', SHORT_SETTLE] },
    // The rule create's outcome is unknown: the listing is checked (up to the settle timeout) before creating again.
    { name: 'reset before the response', faults: [{ route: CREATE_IP, kind: 'reset' }, { route: CREATE_HINT, kind: 'reset' }], args: ['--settle-timeout', SHORT_SETTLE] },
    {
      name: 'reset after the write',
      faults: [{ route: CREATE_IP, kind: 'reset-after-write' }, { route: CREATE_HINT, kind: 'reset-after-write', count: 2 }],
      detail: 'outcome was unknown; found in the listing',
    },
    {
      name: 'reset after the write, listing lagging 1.2 s',
      faults: [{ route: CREATE_HINT, kind: 'reset-after-write' }],
      emulator: { listingLagMs: 1200 },
      detail: 'outcome was unknown; found in the listing',
    },
    {
      // A gateway answering 504 for a create the backend finished: checked, never repeated blindly.
      name: '504 after the write',
      faults: [{ route: CREATE_IP, kind: 'status-after-write', status: 504 }, { route: CREATE_HINT, kind: 'status-after-write', status: 504, count: 2 }],
      detail: 'outcome was unknown; found in the listing',
    },
    {
      // A proxy answering 503 for a create the backend finished, twice in a row: checked each time, never repeated blindly.
      name: '503 after the write',
      faults: [{ route: CREATE_IP, kind: 'status-after-write', status: 503 }, { route: CREATE_HINT, kind: 'status-after-write', status: 503, count: 2 }],
      detail: 'outcome was unknown; found in the listing',
    },
    {
      // The create's outcome stays unknown twice: the listing is checked after each answer, the third attempt lands.
      name: 'two ambiguous answers, then success',
      faults: [{ route: CREATE_HINT, kind: 'status', status: 502, count: 2 }],
      args: ['--settle-timeout', SHORT_SETTLE, '--concurrency', '1'],
    },
    // A 500 that did not write: the listing shows nothing, so the rule is created again.
    { name: '500 before the write', faults: [{ route: CREATE_HINT, kind: 'status', status: 500 }], args: ['--settle-timeout', SHORT_SETTLE] },
    { name: 'hang (client timeout)', faults: [{ route: CREATE_IP, kind: 'hang' }, { route: CREATE_HINT, kind: 'hang' }], args: ['--request-timeout', '400', '--settle-timeout', SHORT_SETTLE] },
  ];

  for (const { name, faults, args = [], emulator, detail } of cases) {
    it(`${name}: converges without duplicates`, async () => {
      const h = await start(emulator);
      for (const fault of faults) h.emulator.control.addFault(fault);
      const result = await apply(['--format', 'json', ...args]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const report = parseJson<{ summary: { failed: number; skipped: number }; settled: boolean; results: { detail?: string }[] }>(result);
      expect(report.summary).toMatchObject({ failed: 0, skipped: 0 });
      if (detail) expect(report.results.map((r) => r.detail)).toContain(detail);
      expect(report.settled).toBe(true);
      // Every scripted fault was met, and the client retried or checked past it.
      expect(h.emulator.control.faults()).toEqual([]);
      expect(h.emulator.control.calls().filter((c) => c.status !== 200).length).toBeGreaterThanOrEqual(faults.reduce((n, f) => n + (f.count ?? 1), 0));
      expect(expectNoDuplicates(h)).toEqual({ rules: SAMPLE_RULES, ipValues: SAMPLE_IP_VALUES });
      // From empty nothing is deleted, faults or not.
      expect(h.writes().filter((w) => w.route === DELETE_HINT || w.route === DELETE_IP)).toEqual([]);
    });
  }

  it('429 waits for Retry-After', async () => {
    const h = await start();
    h.emulator.control.addFault({ route: CREATE_IP, kind: 'status', status: 429, retryAfterSeconds: 1 });
    const result = await apply(['--concurrency', '1']);
    expect(result.code, result.stderr).toBe(0);
    const retry = result.logs.find((l) => l.msg === 'retrying an API call');
    expect(retry).toMatchObject({ route: CREATE_IP, delayMs: 1000, code: 'api_rate_limited' });
    const [limited, next] = h.emulator.control.calls().filter((c) => c.route === CREATE_IP);
    expect(limited?.status).toBe(429);
    expect((next?.time ?? 0) - (next?.durationMs ?? 0) - (limited?.time ?? 0)).toBeGreaterThanOrEqual(950);
  });
});
