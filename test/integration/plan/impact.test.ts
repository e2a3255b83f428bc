/**
 * `plan --impact` and `apply --impact` as users run them (the CLI's main, in
 * process) against the emulator seeded with known hits and no demo traffic:
 * each kind of change gets exactly the counts its seed implies, hits outside
 * the window and those marked false positives are left out, a failed hits
 * listing makes the impact incomplete without touching the plan, and
 * `--impact-limit` guards as the mass-delete guard does: closed on an
 * incomplete impact, and from a saved plan whose limit its checksum binds.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HitSeed } from '../../../src/emulator/hits/records.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import type { ChangeImpact } from '../../../src/plan/change-document.js';
import { rampartAgainst, runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const CLIENT = 10042;

const BEFORE = `version: 1
client: ${CLIENT}
application: 7
mode: monitoring
rules:
  - name: trial-scanner
    type: regex
    experimental: true
    regex: curltool
    attack: scanner
    point: [[header, USER-AGENT]]
`;

/** Every change the test counts: the mode to block, a promotion, a stamp ignored, a patch no hit can judge, an allow and a deny entry. */
const AFTER = `version: 1
client: ${CLIENT}
application: 7
mode: block
rules:
  - name: trial-scanner
    type: regex
    regex: curltool
    attack: scanner
    point: [[header, USER-AGENT]]
  - name: search-stamp
    type: disable_stamp
    stamp: 7730
    point: [[get, q]]
    when:
      - url: /api/search
  - name: custom-header-patch
    type: vpatch
    attack: any
    point: [[get, debug]]
    when:
      - { point: [header, X-CUSTOM], equal: x }
ip_lists:
  allow:
    - ips: [198.51.100.9]
  deny:
    - ips: [203.0.113.0/24]
`;

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator({ demoTraffic: false });
  policies = await policyDir({ 'shop.yaml': BEFORE });
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

const rampart = rampartAgainst(() => emulator, () => policies);

const now = () => Math.floor(Date.now() / 1000);
const search = { poolid: 7, domain: 'shop.example.com', path: '/api/search', point: ['get', 'q'], type: 'sqli' };

/** The hits, each a request of its own unless named alike; the comments say which change counts each. */
function seedHits(experimentalRegexId: number): void {
  const hits: Omit<HitSeed, 'clientid'>[] = [
    // From the denied subnet, let through: the mode, the deny entry and the ignored stamp count them.
    ...['r1', 'r2', 'r3'].map((id) => ({ ...search, request_id: id, ip: '203.0.113.5', stamps: [7730] })),
    // Another stamp from another source, let through: the mode alone.
    { ...search, request_id: 'r4', ip: '192.0.2.1', stamps: [7731] },
    // From the address to be allowed: blocked (the allow entry counts it), and let through (nobody does).
    { ...search, request_id: 'r5', ip: '198.51.100.9', stamps: [7731], block_status: 'blocked', path: '/login', point: ['post', 'json_doc', 'hash', 'email'] },
    { ...search, request_id: 'r6', ip: '198.51.100.9', stamps: [7731] },
    // The experimental rule's dry run: the promotion counts it.
    { poolid: 7, domain: 'shop.example.com', path: '/home', point: ['header', 'USER-AGENT'], type: 'scanner', request_id: 'r7', ip: '192.0.2.2', experimental: true, regex: [experimentalRegexId] },
    // Outside the window, and marked a false positive: nobody counts them.
    { ...search, request_id: 'r8', ip: '203.0.113.6', stamps: [7730], time: now() - 8 * 86_400 },
    { ...search, request_id: 'r9', ip: '203.0.113.7', stamps: [7730], state: 'falsepositive' },
  ];
  emulator.control.seedHits(hits.map((hit) => ({ clientid: CLIENT, time: now() - 3600, ...hit })));
}

async function prepared(): Promise<void> {
  const applied = await rampart('apply', ['--auto-approve']);
  expect(applied.code, applied.stderr).toBe(0);
  const trial = emulator.control.state().hints.find((hint) => hint.record.type === 'experimental_regex');
  seedHits(trial?.record.regex_id as number);
  await policies.write('shop.yaml', AFTER);
}

async function planJson(args: string[] = []): Promise<{ plan: PlanDocument; code: number; stderr: string }> {
  const run = await rampart('plan', ['--impact', '--format', 'json', ...args]);
  return { plan: JSON.parse(run.stdout) as PlanDocument, code: run.code ?? -1, stderr: run.stderr };
}

/** Each change's impact by what it is. */
function impacts(plan: PlanDocument): Record<string, ChangeImpact | undefined> {
  const named: Record<string, ChangeImpact | undefined> = {};
  for (const change of plan.changes) {
    const what = 'rule' in change ? `${change.action} ${change.rule.type}` : `${change.action} ${'object' in change ? change.object.list : 'objects'}`;
    named[what] = change.impact;
  }
  return named;
}

describe('plan --impact', () => {
  it('gives each change exactly the requests its seed implies, leaving out old hits and false positives', async () => {
    await prepared();
    const { plan, code } = await planJson();
    expect(code).toBe(0);
    const by = impacts(plan);
    // The mode's own effect, on top of the live lists (the deny and allow entries come in the same plan and count under
    // their own lines): r1 to r6, from three sources. r5 was recorded blocked under monitoring: the model, on both sides
    // alike, says monitoring lets it through and block stops it.
    expect(by['update mode'], JSON.stringify(by, null, 1)).toMatchObject({ effect: 'newly_blocked', requests: 6, ips: 3, evaluable: true });
    expect(by['update mode']?.paths).toEqual([{ path: '/api/search', requests: 5 }, { path: '/login', requests: 1 }]);
    // The whole plan: the mode and the lists together. r5 and r6 come from the address the plan allows, so they stay
    // let through; r1 to r4 are newly blocked.
    expect(plan.impact?.total).toEqual({ newly_blocked: { requests: 4, ips: 2 }, no_longer_blocked: { requests: 0, ips: 0 } });
    expect(by['create white']).toMatchObject({ effect: 'no_longer_blocked', requests: 1, ips: 1, sample_request_ids: ['r5'] });
    expect(by['create black']).toMatchObject({ effect: 'attack_hits_from', requests: 3, ips: 1 });
    expect(by['create disable_stamp']).toMatchObject({ effect: 'no_longer_detected', requests: 3 });
    expect(by['create regex']).toMatchObject({ effect: 'newly_detected', requests: 1, sample_request_ids: ['r7'] });
    expect(by['create vpatch']).toMatchObject({ effect: 'not_evaluable', evaluable: false });
    expect(by['create vpatch']?.reason).toContain('X-CUSTOM');
    expect(plan.impact).toMatchObject({ window_seconds: 7 * 86_400, complete: true, not_evaluable: 1, hits_read: 7 });
  });

  it('says in every output that the impact is incomplete when a hits listing fails, and plans the same changes', async () => {
    await prepared();
    const without = await rampart('plan', ['--format', 'json']);
    emulator.control.addFault({ route: 'POST /v1/objects/hit', kind: 'status', status: 400, count: 100 });
    const { plan, code, stderr } = await planJson();
    expect(code).toBe(0);
    expect(plan.impact).toMatchObject({ complete: false });
    expect(plan.impact?.reason).toMatch(/hits listing failed for client 10042/);
    expect(stderr).toMatch(/impact is incomplete/);
    const bare = (p: PlanDocument) => p.changes.map(({ impact: _impact, ...change }) => change);
    expect(bare(plan)).toEqual(bare(JSON.parse(without.stdout) as PlanDocument));
    const text = await rampart('plan', ['--impact']);
    expect(text.stdout).toMatch(/Incomplete: the hits listing failed/);
    expect(text.stdout).toMatch(/would newly block at least 0 requests/);
    const markdown = await rampart('plan', ['--impact', '--format', 'markdown']);
    expect(markdown.stdout).toMatch(/Incomplete: the hits listing failed/);
  });

  it('--impact-limit refuses a plan past it (exit 1, apply refused without --force) and passes one under it', async () => {
    await prepared();
    const over = await rampart('plan', ['--impact-limit', '3', '--detailed-exitcode']);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/Refusing: 1 change\(s\) would have newly blocked, or stopped blocking, more than 3/);
    const refused = await rampart('apply', ['--impact-limit', '3', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unsafe_plan/);
    expect(emulator.control.state().hints.some((hint) => hint.record.type === 'disable_stamp')).toBe(false);
    // The mode change's own effect is 6 requests: a limit of 6 passes.
    const under = await rampart('plan', ['--impact-limit', '6', '--detailed-exitcode']);
    expect(under.code).toBe(2);
    expect(under.stdout).toMatch(/Within the limit of 6 requests/);
    const forced = await rampart('apply', ['--impact-limit', '3', '--auto-approve', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
  });
});

describe('--impact-limit fails closed and rides in the saved plan', () => {
  it('an impact a failing hits listing left incomplete is unsafe: plan exits 1 saying why, apply refuses it, --force applies', async () => {
    await prepared();
    emulator.control.addFault({ route: 'POST /v1/objects/hit', kind: 'status', status: 400, count: 1000 });
    const plan = await rampart('plan', ['--impact-limit', '100', '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(/Unsafe: an incomplete impact cannot show a plan within the limit of 100 requests/);
    expect(plan.stdout).not.toMatch(/Within the limit/);
    expect(plan.stderr).toMatch(/Refusing: the impact is incomplete \(the hits listing failed for client 10042: .*\), so no one can tell/);
    const refused = await rampart('apply', ['--impact-limit', '100', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unsafe_plan/);
    expect(emulator.control.state().hints.some((hint) => hint.record.type === 'disable_stamp')).toBe(false);
    const forced = await rampart('apply', ['--impact-limit', '100', '--auto-approve', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(emulator.control.state().hints.some((hint) => hint.record.type === 'disable_stamp')).toBe(true);
  });

  it('apply --plan enforces the saved plan\'s limit without the flag; the flag beside --plan and an edited limit are refused', async () => {
    await prepared();
    const file = policies.scratch('plan.json');
    const made = await rampart('plan', ['--impact-limit', '3', '--out', file]);
    expect(made.code, made.stderr).toBe(0);
    const saved = JSON.parse(await readFile(file, 'utf8')) as PlanDocument;
    expect(saved.impact).toMatchObject({ limit: 3, over_limit: 1, window_seconds: 604_800 });
    const refused = await rampart('apply', ['--plan', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Refusing: 1 change\(s\) would have newly blocked, or stopped blocking, more than 3 .*\[unsafe_plan\]/);
    expect(emulator.control.state().hints.some((hint) => hint.record.type === 'disable_stamp')).toBe(false);
    const flagged = await rampart('apply', ['--plan', file, '--impact-limit', '1000']);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toMatch(/--impact-limit shape a new plan: .* is applied with the impact it was made with \(limit 3\)/);
    const raised = policies.scratch('raised.json');
    await writeFile(raised, JSON.stringify({ ...saved, impact: { ...saved.impact, limit: 1000 } }));
    expect((await rampart('apply', ['--plan', raised])).stderr).toMatch(/checksum mismatch.*\[stale_plan\]/);
    const forced = await rampart('apply', ['--plan', file, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(emulator.control.state().hints.some((hint) => hint.record.type === 'disable_stamp')).toBe(true);
  });

  it('show marks an impact edited after the plan was made, in the text and the comment', async () => {
    await prepared();
    const file = policies.scratch('plan.json');
    expect((await rampart('plan', ['--impact', '--out', file])).code).toBe(0);
    expect((await rampart('show', [file])).stdout).not.toMatch(/not verified/);
    const saved = JSON.parse(await readFile(file, 'utf8')) as PlanDocument;
    const changes = saved.changes.map((change) => (change.impact?.effect === 'newly_blocked' ? { ...change, impact: { ...change.impact, requests: 0 } } : change));
    await writeFile(file, JSON.stringify({ ...saved, changes }));
    const text = await runCliInProcess(['show', file]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/impact \(7 d, not verified\): would newly block 0 requests/);
    expect(text.stdout).toMatch(/Impact not verified: it does not match its checksum: it was changed after the plan was made; its figures are not evidence/);
    expect((await runCliInProcess(['show', file, '--format', 'markdown'])).stdout).toMatch(/> \[!CAUTION\]\n> Impact not verified/);
  });
});
