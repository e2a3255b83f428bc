import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planChecksum } from '../../../src/plan/index.js';
import { readSavedPlan } from '../../../src/reconcile/saved-plan.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-plan-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const valid = () => ({
  format_version: 1, owner: 'rampart', summary: { create: 0, delete: 0, unchanged: 0, replace: 0 }, api_calls: 0,
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
    for (const content of ['not json', [], { format_version: 2, changes: [] }, withoutSafety]) {
      await expect(readSavedPlan(await save(content))).rejects.toMatchObject({ code: 'usage' });
    }
  });

  it('refuses an edited plan', async () => {
    const edited = { ...valid(), changes: [{ action: 'delete', kind: 'rule', client: 1, application: 'all', id: 5, reason: 'not-declared', rule: {} }] };
    await expect(readSavedPlan(await save(edited))).rejects.toMatchObject({ code: 'stale_plan' });
  });
});
