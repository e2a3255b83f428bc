/**
 * What the plan comment is made of: the saved plan (with the commit, run, API
 * and time in its header), or a failed step's errors in place of a stale plan;
 * and how it stays under the forges' 65,536-character limit.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commentText, postPlanComment } from '../../../src/ci/comment.js';
import { renderFailureComment } from '../../../src/ci/failure.js';
import { MAX_COMMENT_CHARS, PLAN_MARKER } from '../../../src/ci/pr-comment.js';
import { StalePlanError } from '../../../src/errors.js';
import { NEVER_EXPIRES, type LiveIpEntry } from '../../../src/model/ip.js';
import { renderJson } from '../../../src/plan/render/json.js';
import { renderMarkdown } from '../../../src/plan/render/markdown.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';
import { desiredIps, desiredRule, desiredState, liveRule, liveState, OWNER, ruleFields } from '../plan/builders.js';
import { everyChange } from '../plan/scenario.js';
import { startFakeForge, type FakeForge } from './fake-forge.js';
import { planDocument } from '../../helpers/plan-document.js';

const TOKEN = 'ghs_secret-token-value';
const HEAD = '0123456789abcdef0123456789abcdef01234567';
let dir: string;
let forge: FakeForge | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-ci-sources-'));
  await writeFile(join(dir, 'pr.json'), JSON.stringify({ number: 42, pull_request: { number: 42, head: { sha: HEAD } } }));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await forge?.close();
  forge = undefined;
});

function githubEnv(url: string): NodeJS.ProcessEnv {
  return {
    GITHUB_API_URL: url, GITHUB_REPOSITORY: 'acme/policies', GITHUB_EVENT_PATH: join(dir, 'pr.json'), GITHUB_TOKEN: TOKEN,
    GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '9001', GITHUB_SHA: 'f'.repeat(40),
    RAMPART_API_URL: 'https://api.example.test',
  };
}

async function saved(name: string, plan: ReturnType<typeof planDocument>): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, renderJson(plan));
  return file;
}

describe('a failed run replaces the plan comment', () => {
  let policies: PolicyDir;
  beforeAll(async () => {
    policies = await policyDir({ 'shop.yaml': 'version: 1\nclient: 10042\napplication: 7\nrules:\n  - name: x\n    type: vpatch\n    attack: nonsense\n    point: [[header, HOST]]\n' });
  });
  afterAll(async () => policies.cleanup());

  it('a failing validate leaves a red failure comment with its diagnostics where the stale plan was', async () => {
    forge = await startFakeForge('github', TOKEN);
    forge.comments.push({ id: 7, body: `${PLAN_MARKER}\n### Rampart plan: no changes\n`, user: 'github-actions[bot]', created_at: '2026-01-01T00:00:00Z' });
    const validate = await runCliInProcess(['validate', '--policies', policies.dir]);
    expect(validate.code).toBe(1);
    const errors = join(dir, 'errors.txt');
    await writeFile(errors, validate.stdout);

    const outcome = await postPlanComment({ failed: 'validate', errors }, githubEnv(forge.url));
    expect(outcome).toMatchObject({ posted: true, action: 'update', id: 7 });
    expect(forge.comments).toHaveLength(1);
    const body = forge.comments[0]?.body ?? '';
    expect(body.startsWith(`${PLAN_MARKER}\n### ❌ Rampart validate failed\n`)).toBe(true);
    expect(body).not.toContain('no changes');
    expect(body).toContain('> [!CAUTION]\n> **The `validate` step failed: there is no plan for this commit.**');
    expect(body).toMatch(/shop\.yaml:7:\d+: error: .*\[[a-z-]+\]/);
    // The header names the pull request's head commit, not the merge commit GITHUB_SHA names.
    expect(body).toContain('Commit `0123456789ab` · [CI run](https://github.example/acme/policies/actions/runs/9001) · API `https://api.example.test` · ');
  });

  it('still posts when the failed step wrote no errors file', async () => {
    const text = await commentText({ failed: 'plan', errors: join(dir, 'absent.txt') }, githubEnv('http://127.0.0.1:1'));
    expect(text).toContain('### ❌ Rampart plan failed');
    expect(text).toContain('(the step printed nothing; see the CI run)');
  });

  it('fences errors so no backtick in them can end the block', () => {
    const text = renderFailureComment({ step: 'plan', errors: 'bad ``` fence\nrampart: the API answered 503 [api_unavailable]', maxChars: MAX_COMMENT_CHARS });
    expect(text).toContain('````text\nbad ``` fence\n');
    expect(text).toContain('\n````\n');
  });
});

describe('the plan comment from the saved plan', () => {
  it('renders exactly the saved plan, with the CI context in its header', async () => {
    const file = await saved('every.json', planDocument(everyChange().desired, everyChange().live));
    const text = await commentText({ plan: file }, githubEnv('http://127.0.0.1:1'));
    expect(text).toContain('### Rampart plan: 4 to create, 1 to update, 4 to replace, 5 to delete, 4 unchanged\n');
    expect(text).toContain('Commit `0123456789ab` · [CI run](https://github.example/acme/policies/actions/runs/9001)');
    expect(text).toContain('> - **rule old-scanner \\#552 (regex)**');
  });

  it('a second run on the same plan edits nothing, though its run, time and commit differ; a changed plan is one edit', async () => {
    forge = await startFakeForge('github', TOKEN);
    const plan = planDocument(everyChange().desired, everyChange().live);
    const file = await saved('same.json', plan);
    const first = await postPlanComment({ plan: file }, githubEnv(forge.url));
    expect(first).toMatchObject({ posted: true, action: 'create' });
    const writes = () => forge?.calls.filter((call) => call.method !== 'GET').length ?? 0;
    expect(writes()).toBe(1);
    const rerun = { ...githubEnv(forge.url), GITHUB_RUN_ID: '9002', GITHUB_SHA: 'e'.repeat(40) };
    const second = await postPlanComment({ plan: file, commit: 'fedcba9876543210fedcba9876543210fedcba98' }, rerun);
    expect(second).toMatchObject({ posted: true, action: 'none' });
    expect(writes()).toBe(1);
    expect(forge.comments[0]?.body).toContain('runs/9001');

    const changed = await saved('changed.json', planDocument(everyChange().desired, liveState([])));
    expect(await postPlanComment({ plan: changed }, rerun)).toMatchObject({ posted: true, action: 'update' });
    expect(writes()).toBe(2);
    expect(forge.comments[0]?.body).toContain('runs/9002');
  });

  it('refuses a saved plan edited after it was made', async () => {
    const plan = planDocument(everyChange().desired, everyChange().live);
    const file = join(dir, 'edited.json');
    await writeFile(file, renderJson({ ...plan, changes: plan.changes.slice(1) }));
    await expect(commentText({ plan: file }, githubEnv('http://127.0.0.1:1'))).rejects.toBeInstanceOf(StalePlanError);
  });

  it('takes exactly one source', async () => {
    await expect(commentText({}, {})).rejects.toThrow(/exactly one of --plan FILE, --failed STEP or --file FILE/);
  });
});

describe('the comment size limit', () => {
  /** Thousands of values over many applications and lists, plus hundreds of deletes: far past 65,536 characters. */
  function hugePlan() {
    const rules = Array.from({ length: 300 }, (_, i) => desiredRule(ruleFields('vpatch', 100 + i, `-${i}`), `rule-${i}`, i + 1));
    const ips = Array.from({ length: 400 }, (_, app) =>
      desiredIps(Array.from({ length: 12 }, (__, i) => `10.${app % 250}.${i}.0/24`), { ruleType: 'ip_range', pools: [1000 + app], reason: `app ${app}` }, app + 1)).flat();
    const doomed: LiveIpEntry[] = Array.from({ length: 600 }, (_, i) => ({
      client: 10042, list: 'black', ruleType: 'ip_range', value: `192.0.${Math.floor(i / 250)}.${i % 250}/32`, pools: [2000 + (i % 40)],
      expiresAt: NEVER_EXPIRES, id: 5000 + i, owner: OWNER, objectSize: 1,
    }));
    const oldRules = Array.from({ length: 200 }, (_, i) => ({ ...liveRule(ruleFields('regex', 3000 + i, `-old${i}`), 8000 + i), name: `old-${i}` }));
    return planDocument(desiredState(rules, ips), liveState(oldRules, doomed));
  }

  it('cuts changes from the end, keeps the header, the summary, every deletion named and every change listed up to the limit, and says what is left out', () => {
    const plan = hugePlan();
    const full = renderMarkdown(plan);
    expect(full.length).toBeGreaterThan(3 * MAX_COMMENT_CHARS);
    const cut = renderMarkdown(plan, { maxChars: MAX_COMMENT_CHARS, context: { commit: HEAD } });
    expect(cut.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(cut.startsWith(`${PLAN_MARKER}\n### Rampart plan: 5100 to create, 0 to update, 800 to delete, 0 unchanged\n`)).toBe(true);
    expect(cut).toContain('Commit `0123456789ab`');
    expect(cut).toContain('**Plan: 5100 to create, 0 to update, 800 to delete, 0 unchanged (5102 API calls).**');
    expect(cut).toContain('> **This plan deletes 800 objects** from the account:');
    expect(cut).toMatch(/> \[!NOTE\]\n> \*\*Cut to fit the comment limit of 65536 characters\*\*: \d+ of 940 changes are shown in full, \d+ as one line each, \d+ not listed\./);
    // The changes not shown in full are listed one line each, in order, and the rest counted.
    expect(cut).toContain('**Not shown in full** (one line each):\n\n- `+` rule rule-0 (vpatch) · client 10042, application 100 (policies/shop.yaml:1)\n');
    expect(cut).toMatch(/\n- … and \d+ more changes, in the job summary and the saved plan\n/);
    expect(cut).toContain('<sub>checksum');
    // Every code block that starts also ends.
    expect((cut.match(/^```/gm) ?? []).length % 2).toBe(0);
  });

  it('leaves a plan that fits as it is', () => {
    const plan = planDocument(everyChange().desired, everyChange().live);
    expect(renderMarkdown(plan, { maxChars: MAX_COMMENT_CHARS })).toBe(renderMarkdown(plan));
  });

  it('a failure with a huge log still fits, its first errors kept', () => {
    const errors = Array.from({ length: 5000 }, (_, i) => `policies/a.yaml:${i + 1}:3: error: bad value [invalid-value]`).join('\n');
    const text = renderFailureComment({ step: 'validate', errors, maxChars: MAX_COMMENT_CHARS });
    expect(text.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(text).toContain('policies/a.yaml:1:3: error');
    expect(text).toMatch(/_\d+ more lines in the CI run's log\._\n$/);
  });
});

describe('a failed plan step', () => {
  it('shows the error and warning log lines as text, the info lines left out', () => {
    const stderr = [
      '{"level":30,"time":"2026-11-23T18:49:51.389Z","msg":"plan ready"}',
      '{"level":40,"time":"2026-11-23T18:49:51.389Z","msg":"retrying","err":{"message":"socket hang up"}}',
      'rampart: the API answered 401: check the token [auth]',
    ].join('\n');
    const text = renderFailureComment({ step: 'plan', errors: stderr, maxChars: MAX_COMMENT_CHARS });
    expect(text).toContain('```text\nwarning: retrying: socket hang up\nrampart: the API answered 401: check the token [auth]\n```');
    expect(text).not.toContain('plan ready');
  });
});
