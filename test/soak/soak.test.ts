/**
 * A short, fixed-seed run of the fault-injection soak (`npm run soak` runs the
 * long one), plus proof that its verdict catches what it must catch.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { DesiredState } from '../../src/model/state.js';
import { NEVER_EXPIRES } from '../../src/model/ip.js';
import { plantForeignObjects } from '../../bench/soak/foreign.js';
import { runSoak } from '../../bench/soak/run.js';
import { snapshotForeign, verifyConvergence } from '../../bench/soak/verify.js';

const ROOT = join(import.meta.dirname, '..', '..');
const source = { file: 'p.yaml', line: 1, col: 1, name: 'r' };
/** What both short soaks share: the built CLI, killed in three iterations of ten, at most 1.5 s into one. */
const SHORT_SOAK = { cli: join(ROOT, 'dist', 'cli.js'), killChance: 0.3, maxKillDelayMs: 1500 };

describe('soak (short)', () => {
  it('converges exactly after random edits, faults and SIGKILLs', async () => {
    const result = await runSoak({ ...SHORT_SOAK, durationMs: 18_000, seed: 20_260_101 });
    expect(result.verdict.problems).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.iterations).toBeGreaterThanOrEqual(3);
    expect(result.finalApplyExit).toBe(0);
    expect(result.finalPlanExit).toBe(0);
    expect(Object.values(result.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(result.verdict.ownedRules).toBe(result.verdict.desiredRules);
    expect(result.verdict.ownedIpValues).toBe(result.verdict.desiredIpValues);
    expect(result.verdict.desiredRules).toBeGreaterThan(0);
  }, 90_000);

  it('converges exactly on the groups IP-list API too', async () => {
    const result = await runSoak({
      ...SHORT_SOAK,
      durationMs: 12_000,
      seed: 20_261_206,
      ipApi: 'groups',
    });
    expect(result.verdict.problems).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.finalApplyExit).toBe(0);
    expect(result.finalPlanExit).toBe(0);
    expect(result.verdict.ownedIpValues).toBe(result.verdict.desiredIpValues);
    expect(result.verdict.desiredIpValues).toBeGreaterThan(0);
  }, 90_000);
});

describe('soak verdict', () => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  const C = 20001;
  const desired: DesiredState = {
    clients: [C],
    rules: [{
      client: C, kind: 'mode', fields: { mode: 'block' }, point: [], source,
      conditions: [{ point: ['instance'], type: 'equal', value: '1' }],
    }],
    ipEntries: [{ client: C, list: 'black', ruleType: 'ip_range', value: '10.0.0.1/32', pools: [1], expiresAt: NEVER_EXPIRES, source }],
  };
  const ownedRule = { clientid: C, type: 'service_mode', mode: 'block', action: [{ point: ['instance'], type: 'equal', value: '1' }], comment: '[managed-by:rampart]' };
  const ownedIp = { clientid: C, list: 'black' as const, rule_type: 'ip_range' as const, values: ['10.0.0.1/32'], pools: [1], reason: '[managed-by:rampart]' };

  async function setup() {
    emulator = await startEmulator({ token: 't' });
    const planted = plantForeignObjects(emulator.control, [C]);
    const foreign = snapshotForeign(emulator.control.state(), planted.hintIds, planted.ipIds);
    return { control: emulator.control, foreign, planted };
  }

  it('passes when the server holds exactly the desired objects', async () => {
    const { control, foreign } = await setup();
    control.seedHint(ownedRule);
    control.seedIpObject(ownedIp);
    const verdict = verifyConvergence(control.state(), desired, 'rampart', foreign);
    expect(verdict.problems).toEqual([]);
    expect(verdict.foreignObjects).toBe(8);
  });

  it('reports missing objects, duplicates and undesired owned objects', async () => {
    const { control, foreign } = await setup();
    control.seedHint(ownedRule);
    control.seedHint(ownedRule);
    control.seedIpObject({ ...ownedIp, values: ['10.0.0.2/32'] });
    const verdict = verifyConvergence(control.state(), desired, 'rampart', foreign);
    expect(verdict.ok).toBe(false);
    expect(verdict.problems.join('\n')).toMatch(/rule r: 2 copies/);
    expect(verdict.problems.join('\n')).toMatch(/10\.0\.0\.1\/32 pools 1: 0 copies/);
    expect(verdict.problems.join('\n')).toMatch(/10\.0\.0\.2\/32\) carries our mark but is not desired/);
  });

  it('reports a wrong reason and a foreign object deleted or changed', async () => {
    const { control, foreign, planted } = await setup();
    control.seedHint(ownedRule);
    control.seedIpObject({ ...ownedIp, reason: 'old [managed-by:rampart]' });
    const state = control.state();
    state.hints = state.hints.filter((s) => s.record.id !== planted.hintIds[0]);
    const changed = state.ipObjects.find((s) => s.record.id === planted.ipIds[0]);
    if (changed) changed.record.reason = 'edited';
    const problems = verifyConvergence(state, desired, 'rampart', foreign).problems.join('\n');
    expect(problems).toMatch(/expiry\/reason .*"old"/);
    expect(problems).toMatch(new RegExp(`foreign rule id ${planted.hintIds[0]} was deleted`));
    expect(problems).toMatch(new RegExp(`foreign IP object id ${planted.ipIds[0]} was changed`));
  });
});
