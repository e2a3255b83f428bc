/**
 * The comment runner against a local stand-in for the GitHub / GitLab APIs on
 * real HTTP: create once, then update in place, never a second comment.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { postPlanComment } from '../../../src/ci/comment.js';
import { ForgeApiError } from '../../../src/errors.js';
import { PLAN_MARKER } from '../../../src/ci/pr-comment.js';
import { UsageError } from '../../../src/errors.js';
import { startFakeForge, type FakeForge } from './fake-forge.js';

const TOKEN = 'ghs_secret-token-value';
const ROOT = join(import.meta.dirname, '../../..');
let dir: string;
let forge: FakeForge | undefined;

/** A direct vitest run rebuilds when dist is older than src/ci. */
function ensureBuilt(): void {
  const built = join(ROOT, 'dist/commands/ci.js');
  const newest = Math.max(...readdirSync(join(ROOT, 'src/ci')).map((f) => statSync(join(ROOT, 'src/ci', f)).mtimeMs));
  if (!existsSync(built) || statSync(built).mtimeMs < newest) spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
}

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'rampart-ci-'));
  await writeFile(join(dir, 'pr.json'), JSON.stringify({ action: 'synchronize', number: 42, pull_request: { number: 42 } }));
  await writeFile(join(dir, 'push.json'), JSON.stringify({ ref: 'refs/heads/main' }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await forge?.close();
  forge = undefined;
});

async function plan(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

function githubEnv(url: string, event = 'pr.json'): NodeJS.ProcessEnv {
  return { GITHUB_API_URL: url, GITHUB_REPOSITORY: 'acme/policies', GITHUB_EVENT_PATH: join(dir, event), GITHUB_TOKEN: TOKEN };
}

describe('rampart ci comment on GitHub', () => {
  it('creates the comment once, then updates it in place, then leaves it', async () => {
    forge = await startFakeForge('github', TOKEN);
    const env = githubEnv(forge.url);
    const v1 = await plan('v1.md', `${PLAN_MARKER}\n## Plan: 1 to create\n`);
    const v2 = await plan('v2.md', `${PLAN_MARKER}\n## Plan: 2 to create\n`);

    const created = await postPlanComment({ file: v1 }, env);
    expect(created).toMatchObject({ posted: true, action: 'create', target: 'acme/policies#42' });
    const updated = await postPlanComment({ file: v2 }, env);
    expect(updated).toMatchObject({ posted: true, action: 'update', id: (created as { id: number }).id });
    const same = await postPlanComment({ file: v2 }, env);
    expect(same).toMatchObject({ posted: true, action: 'none', id: (created as { id: number }).id });

    expect(forge.comments).toHaveLength(1);
    expect(forge.comments[0]?.body).toContain('2 to create');
    expect(forge.calls.every((c) => c.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(forge.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(forge.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('finds its comment past the first page and ignores marked comments of other people', async () => {
    forge = await startFakeForge('github', TOKEN);
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    for (let i = 0; i < 150; i++) forge.comments.push({ id: i + 1, body: `comment ${i}`, user: 'alice', created_at: at(i) });
    forge.comments.push({ id: 500, body: `${PLAN_MARKER}\nquoted`, user: 'alice', created_at: at(151) });
    forge.comments.splice(120, 0, { id: 400, body: `${PLAN_MARKER}\nold`, user: 'github-actions[bot]', created_at: at(120) });
    const result = await postPlanComment({ file: await plan('p.md', `${PLAN_MARKER}\nnew`) }, githubEnv(forge.url));
    expect(result).toMatchObject({ action: 'update', id: 400 });
    expect(forge.comments.find((c) => c.id === 500)?.body).toContain('quoted');
    expect(forge.calls.filter((c) => c.method === 'GET' && c.path.includes('/comments')).map((c) => c.path)).toEqual([
      '/repos/acme/policies/issues/42/comments?per_page=100&page=1',
      '/repos/acme/policies/issues/42/comments?per_page=100&page=2',
    ]);
  });

  it("with a personal token, the token's own login is the author", async () => {
    forge = await startFakeForge('github', TOKEN);
    forge.me = 'release-bot';
    forge.comments.push({ id: 9, body: `${PLAN_MARKER}\nold`, user: 'release-bot', created_at: '2026-01-01T00:00:00Z' });
    forge.comments.push({ id: 8, body: `${PLAN_MARKER}\nactions`, user: 'github-actions[bot]', created_at: '2026-01-02T00:00:00Z' });
    const result = await postPlanComment({ file: await plan('p.md', `${PLAN_MARKER}\nnew`) }, githubEnv(forge.url));
    expect(result).toMatchObject({ action: 'update', id: 9 });
  });

  it('posts nothing outside a pull request', async () => {
    forge = await startFakeForge('github', TOKEN);
    const result = await postPlanComment({ file: await plan('p.md', 'x') }, githubEnv(forge.url, 'push.json'));
    expect(result).toMatchObject({ posted: false, reason: expect.stringContaining('not a pull request') });
    expect(forge.calls).toEqual([]);
  });

  it('explains a missing token, and an API refusal without echoing the token', async () => {
    forge = await startFakeForge('github', TOKEN);
    const file = await plan('p.md', 'x');
    const { GITHUB_TOKEN: _, ...noToken } = githubEnv(forge.url);
    await expect(postPlanComment({ file }, noToken)).rejects.toBeInstanceOf(UsageError);
    const error = await postPlanComment({ file }, { ...githubEnv(forge.url), GITHUB_TOKEN: 'wrong-token' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeApiError);
    expect((error as ForgeApiError).code).toBe('forge_api');
    expect((error as Error).message).toMatch(/answered 401: Bad credentials \(check the token/);
    expect((error as Error).message).not.toContain('wrong-token');
  });

  it('works through the real CLI, with the API base URL from GITHUB_API_URL', async () => {
    forge = await startFakeForge('github', TOKEN);
    const file = await plan('cli.md', `${PLAN_MARKER}\nfrom the cli\n`);
    const run = (): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'ci', 'comment', '--file', file], {
          env: { PATH: process.env.PATH, ...githubEnv((forge as FakeForge).url) },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const first = await run();
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^created the plan comment \d+ on acme\/policies#42\n$/);
    expect(first.code).toBe(0);
    const second = await run();
    expect(second.stdout).toMatch(/already up to date/);
    expect(forge.comments).toHaveLength(1);
  }, 30_000);
});

describe('rampart ci comment on GitLab', () => {
  const gitlabEnv = (url: string): NodeJS.ProcessEnv => ({
    GITLAB_CI: 'true', CI_API_V4_URL: url, CI_PROJECT_ID: '7', CI_MERGE_REQUEST_IID: '42', RAMPART_GITLAB_TOKEN: TOKEN,
  });

  it('creates the merge request note once, then updates it in place; system notes are ignored', async () => {
    forge = await startFakeForge('gitlab', TOKEN);
    forge.me = 'rampart-bot';
    forge.comments.push({ id: 1, body: `${PLAN_MARKER} mentioned in a system note`, user: 'rampart-bot', created_at: '2026-01-01T00:00:00Z', system: true });
    const first = await postPlanComment({ file: await plan('g1.md', `${PLAN_MARKER}\nv1`) }, gitlabEnv(forge.url));
    expect(first).toMatchObject({ posted: true, action: 'create', target: 'project 7!42' });
    const second = await postPlanComment({ file: await plan('g2.md', `${PLAN_MARKER}\nv2`) }, gitlabEnv(forge.url));
    expect(second).toMatchObject({ action: 'update', id: (first as { id: number }).id });
    expect(forge.comments.filter((c) => !c.system)).toHaveLength(1);
    expect(forge.calls.every((c) => c.auth === TOKEN)).toBe(true);
    expect(forge.calls.some((c) => c.method === 'PUT')).toBe(true);
  });

  it('requires a token that can write notes', async () => {
    forge = await startFakeForge('gitlab', TOKEN);
    const { RAMPART_GITLAB_TOKEN: _, ...env } = gitlabEnv(forge.url);
    await expect(postPlanComment({ file: await plan('g.md', 'x') }, env)).rejects.toThrow(/api scope/);
  });
});
