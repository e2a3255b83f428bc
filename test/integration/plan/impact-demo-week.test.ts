/**
 * The emulator's demo week as the impact reads it: the shop's deny entry for
 * 203.0.113.0/24 came in the middle of the week, so the service recorded its
 * sources' earlier requests to the shop as let through (monitoring) and the
 * later ones as blocked. A model that took "before" from the recorded status
 * would count the earlier ones as newly blocked by a switch to safe_blocking;
 * the model, on both sides alike, counts none, and agrees with every verdict
 * recorded since the configuration last changed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOP_DENY_HOURS_AGO, demoHits } from '../../../src/emulator/hits/demo.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import { rampartAgainst } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';

const HOUR = 3_600;
const DAY = 24 * HOUR;
const CLIENT = 10042;
const SHOP_DENY = '203.0.113.0/24';

let emulator: TestEmulator;
let policies: PolicyDir;
let shop: string;
const rampart = rampartAgainst(() => emulator, () => policies);
const nowSeconds = () => Math.floor(emulator.control.nowMs() / 1000);

/**
 * The sample policies applied, their times then set as the demo week tells
 * it: the rules six days ago, the shop's deny entry for 203.0.113.0/24
 * DEMO_SHOP_DENY_HOURS_AGO hours ago, the rest of the lists with the rules.
 */
async function applyAsTheWeekTellsIt(): Promise<void> {
  const run = await rampart('apply', ['--auto-approve']);
  expect(run.code, run.stderr).toBe(0);
  const { hints, ipObjects } = emulator.control.state();
  for (const { record } of hints) emulator.control.seedHint({ ...record, updated_at: nowSeconds() - 6 * DAY });
  const denyEntry = ipObjects.filter(({ record }) => record.subnet === SHOP_DENY);
  expect(denyEntry).toHaveLength(1);
  for (const { record } of ipObjects) {
    const hoursAgo = record.subnet === SHOP_DENY ? DEMO_SHOP_DENY_HOURS_AGO : 6 * 24;
    emulator.control.seedIpObject({ ...record, created_at: nowSeconds() - hoursAgo * HOUR });
  }
}

beforeAll(async () => {
  emulator = await startTestEmulator();
  policies = await samplePolicyDir();
  shop = await readFile(join(policies.dir, 'shop.yaml'), 'utf8');
  await applyAsTheWeekTellsIt();
});
afterAll(async () => {
  await emulator.close();
  await policies.cleanup();
});

async function planWithMode(mode: string): Promise<PlanDocument> {
  await policies.write('shop.yaml', shop.replace('\nmode: monitoring\n', `\nmode: ${mode}\n`));
  const run = await rampart('plan', ['--impact', '--format', 'json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as PlanDocument;
}

describe('the demo week, with the shop\'s deny entry added mid-week', () => {
  it('records the deny list\'s sources let through before the entry and blocked after it', async () => {
    const fromDenied = demoHits(CLIENT, nowSeconds()).map((hit) => hit.record)
      .filter((hit) => hit.poolid === 7 && hit.ip.startsWith('203.0.113.') && !hit.path.startsWith('/admin/'));
    const added = nowSeconds() - DEMO_SHOP_DENY_HOURS_AGO * HOUR;
    expect(fromDenied.filter((hit) => hit.time < added).every((hit) => hit.block_status !== 'blocked')).toBe(true);
    expect(fromDenied.filter((hit) => hit.time >= added).every((hit) => hit.block_status === 'blocked')).toBe(true);
    expect(fromDenied.filter((hit) => hit.time < added).length).toBeGreaterThan(5);
  });

  it('counts no request newly blocked by safe_blocking, though the service let the deny list\'s earlier ones through', async () => {
    const plan = await planWithMode('safe_blocking');
    const mode = plan.changes.find((change) => 'rule' in change && change.rule.type === 'mode' && change.action === 'update');
    expect(mode?.impact).toMatchObject({ effect: 'newly_blocked', requests: 0, evaluable: true });
    expect(plan.impact?.total).toEqual({ newly_blocked: { requests: 0, ips: 0 }, no_longer_blocked: { requests: 0, ips: 0 } });
  });

  it('agrees with every verdict the service recorded since the deny entry, the configuration\'s last change', async () => {
    const plan = await planWithMode('block');
    const agreement = plan.impact?.agreement;
    expect(agreement?.checked).toBeGreaterThan(10);
    expect(agreement).toMatchObject({ agree: agreement?.checked, samples: [] });
    expect(plan.impact?.reliable).toBe(true);
  });
});
