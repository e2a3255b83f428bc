import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPlan, encodePlan, planChecksum, PLAN_FORMAT_VERSION, type Plan, type PlanDocument } from '../../../src/plan/index.js';
import type { Impact } from '../../../src/plan/model.js';
import { planDocument } from '../../helpers/plan-document.js';
import { confirmSavedPlan, planSettingsOf, readSavedPlan } from '../../../src/reconcile/saved-plan.js';
import { everyChange } from '../plan/scenario.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-plan-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const valid = () => ({
  format_version: PLAN_FORMAT_VERSION, owner: 'rampart', summary: { create: 0, update: 0, delete: 0, unchanged: 0, replace: 0, adopt: 0 }, api_calls: 0,
  safety: { ok: true, delete_count: 0, owned_count: 0, share: 0, threshold: 0.3, min_owned: 10 },
  checksum: planChecksum([]), desired_digest: 'd', live_digest: 'l', changes: [], notes: [],
});

async function save(content: unknown): Promise<string> {
  const file = join(dir, 'plan.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('readSavedPlan', () => {
  it('reads a plan made by `plan --out`', async () => {
    expect((await readSavedPlan(await save(valid()))).owner).toBe('rampart');
  });

  it('refuses what is not a plan, with a usage error instead of a crash later', async () => {
    const { safety: _safety, ...withoutSafety } = valid();
    for (const content of ['not json', [], { format_version: PLAN_FORMAT_VERSION, changes: [] }, withoutSafety]) {
      await expect(readSavedPlan(await save(content))).rejects.toMatchObject({ code: 'usage' });
    }
  });

  it('refuses a plan of an older format by name: its digests and checksum are computed otherwise', async () => {
    for (const older of [1, 3]) {
      const file = await save({ ...valid(), format_version: older });
      await expect(readSavedPlan(file)).rejects.toMatchObject({
        code: 'stale_plan',
        message: `${file} was made by an older Rampart (plan format ${older}; this one reads format 4): make a new plan`,
      });
    }
  });

  it('refuses a plan of a newer format by name', async () => {
    const file = await save({ ...valid(), format_version: 5 });
    await expect(readSavedPlan(file)).rejects.toMatchObject({
      code: 'usage',
      message: `${file} was made by a newer Rampart (plan format 5; this one reads format 4): use that version`,
    });
  });

  it('refuses an edited plan', async () => {
    const edited = { ...valid(), changes: [{ action: 'delete', kind: 'rule', client: 1, application: 'all', id: 5, reason: 'not-declared', rule: {} }] };
    await expect(readSavedPlan(await save(edited))).rejects.toMatchObject({ code: 'stale_plan' });
  });
});

describe('confirmSavedPlan', () => {
  const { desired, live } = everyChange();
  const limits = { maxDeleteShare: 0.3, minOwned: 10 };
  const confirm = (plan: PlanDocument) => confirmSavedPlan(plan, desired, live, { file: 'plan.json', owner: 'rampart', limits });

  it('returns the plan computed again, with figures from the inputs and the command, not the file', () => {
    const saved = planDocument(desired, live);
    const edited: PlanDocument = { ...saved, summary: { create: 0, update: 0, delete: 0, unchanged: 0, replace: 0, adopt: 0 }, safety: { ...saved.safety, owned_count: 1000 } };
    const confirmed = confirmSavedPlan(edited, desired, live, { file: 'plan.json', owner: 'rampart', limits: { maxDeleteShare: 0.1, minOwned: 1 } });
    expect(encodePlan(confirmed).changes).toEqual(saved.changes);
    expect(confirmed.summary).toEqual(saved.summary);
    expect(confirmed.safety).toMatchObject({ ownedCount: saved.safety.owned_count, threshold: 0.1, minOwned: 1 });
  });

  it('refuses changes the inputs do not produce, whatever the checksum says', () => {
    const saved = planDocument(desired, live);
    const changes = saved.changes.map((c) => (c.action === 'delete' && c.kind === 'rule' ? { ...c, id: c.id + 1000 } : c));
    const forged: PlanDocument = { ...saved, changes, checksum: planChecksum(changes) };
    expect(() => confirm(forged)).toThrow(expect.objectContaining({ code: 'plan_mismatch', message: expect.stringContaining('plan.json') }));
    expect(() => confirm({ ...saved, changes: saved.changes.slice(1), checksum: planChecksum(saved.changes.slice(1)) }))
      .toThrow(expect.objectContaining({ code: 'plan_mismatch' }));
  });

  it('keeps the staleness refusals', () => {
    const saved = planDocument(desired, live);
    expect(() => confirm({ ...saved, owner: 'other' })).toThrow(expect.objectContaining({ code: 'stale_plan' }));
    expect(() => confirm({ ...saved, desired_digest: 'x' })).toThrow(expect.objectContaining({ code: 'stale_plan' }));
    expect(() => confirm({ ...saved, live_digest: 'x' })).toThrow(expect.objectContaining({ code: 'stale_plan' }));
  });
});

describe('planSettingsOf', () => {
  it('reads what shaped a saved plan, the defaults where it records nothing', () => {
    const saved = valid() as unknown as PlanDocument;
    expect(planSettingsOf(saved)).toEqual({ adopt: false, ruleUpdates: 'update' });
    expect(planSettingsOf({ ...saved, adopt: true, rule_updates: 'replace' })).toEqual({ adopt: true, ruleUpdates: 'replace' });
  });
});

describe('a saved plan\'s impact', () => {
  const { desired, live } = everyChange();
  const impact: Impact = { effect: 'newly_blocked', evaluable: true, requests: 500, ips: 7, paths: [{ path: '/api/search', requests: 500 }], pathCount: 1, sampleRequestIds: ['r1'] };

  /** The scenario's plan with an impact on every change, as `plan --impact [--impact-limit N] --out` saves it. */
  function evidenced(limit?: number): PlanDocument {
    const plan: Plan = buildPlan(desired, live);
    return encodePlan({
      ...plan,
      impacts: new Map(plan.changes.map((change) => [change, impact])),
      impact: { windowSeconds: 604_800, hitsRead: 500, listings: 1, complete: true, notEvaluable: 0, ...(limit !== undefined ? { limit, overLimit: 1 } : {}) },
    });
  }

  it('reads back unmarked as it was made', async () => {
    const read = await readSavedPlan(await save(evidenced(100)));
    expect(read.impact).toMatchObject({ limit: 100, window_seconds: 604_800 });
    expect(read.impact?.unverified).toBeUndefined();
  });

  it('binds the limit and its window to the checksum: removed, raised or widened, the file is a modified one', async () => {
    const saved = evidenced(100);
    const { impact: _impact, impact_checksum: _checksum, ...stripped } = saved;
    for (const edited of [stripped, { ...saved, impact: { ...saved.impact, limit: 1000 } }, { ...saved, impact: { ...saved.impact, window_seconds: 3600 } }]) {
      await expect(readSavedPlan(await save(edited))).rejects.toMatchObject({ code: 'stale_plan', message: expect.stringContaining('checksum mismatch') });
    }
  });

  it('marks edited evidence as not verified, without refusing the plan its changes confirm', async () => {
    const saved = evidenced();
    const [first, ...rest] = saved.changes;
    const edited = { ...saved, changes: [{ ...first, impact: { ...first?.impact, requests: 5 } }, ...rest] };
    const read = await readSavedPlan(await save(edited));
    expect(read.impact?.unverified).toBe('it does not match its checksum: it was changed after the plan was made');
    const summaryEdited = await readSavedPlan(await save({ ...saved, impact: { ...saved.impact, hits_read: 1 } }));
    expect(summaryEdited.impact?.unverified).toMatch(/does not match its checksum/);
    const { impact_checksum: _gone, ...unchecked } = saved;
    expect((await readSavedPlan(await save(unchecked))).impact?.unverified).toBe('the plan carries no impact checksum, so its figures cannot be checked');
  });
});
