/**
 * The action's validate and plan steps run as GitHub runs them (`bash
 * --noprofile --norc -eo pipefail`), against the embedded emulator: a plan
 * with changes succeeds with exitcode 2, an invalid policy fails and leaves
 * its diagnostics for the failure comment.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../helpers/cli.js';
import { startCliRunner, writeCliShim, type CliRunner } from '../../helpers/cli-shim.js';

interface Step { id?: string; run?: string }
const steps = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } }).runs.steps;
const script = (id: string): string => steps.find((s) => s.id === id)?.run ?? '';

let dir: string;
let runner: CliRunner | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-action-'));
  mkdirSync(join(dir, 'bin'));
  // `rampart` runs the CLI's main in this process (test/helpers/cli-shim.ts): the steps are the bash around it.
  runner = await startCliRunner();
  await writeCliShim(join(dir, 'bin'), runner);
});
afterAll(async () => {
  await runner?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The step's script under bash as GitHub runs it; asynchronous, so the shim's runner can answer. */
function runStep(id: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script(id)], {
      cwd: ROOT, timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, GITHUB_OUTPUT: join(dir, `${id}.out`), ERRORS: join(dir, `${id}-errors.txt`), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the action steps under bash -e', () => {
  it('plan: changes (exit 2) are a successful step with exitcode=2 and the saved plan', async () => {
    const plan = join(dir, 'plan.json');
    const result = await runStep('plan', { RAMPART_POLICIES: 'policies', RAMPART_API_URL: '', RAMPART_API_TOKEN: '', EMULATOR: 'true', FORMAT: 'text', PLAN_JSON: plan });
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'plan.out'), 'utf8')).toBe(`exitcode=2\nplan-json=${plan}\nhas-changes=true\n`);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({ format_version: 4 });
  });

  it('plan with impact: the saved plan carries it; past impact-limit the step fails with the refusal for the comment', async () => {
    const plan = join(dir, 'plan-impact.json');
    const env = { RAMPART_POLICIES: 'policies', RAMPART_API_URL: '', RAMPART_API_TOKEN: '', EMULATOR: 'true', FORMAT: 'text', PLAN_JSON: plan, IMPACT: 'true', IMPACT_WINDOW: '7d' };
    const result = await runStep('plan', { ...env, IMPACT_LIMIT: '' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({ impact: { window_seconds: 604_800, complete: true } });
    const limited = await runStep('plan', { ...env, IMPACT_LIMIT: '0' });
    expect(limited.status).toBe(1);
    expect(readFileSync(join(dir, 'plan-errors.txt'), 'utf8')).toMatch(/--impact-limit/);
  });

  it('plan with impact-limit alone: the limit is never dropped, and the saved plan carries it for apply --plan', async () => {
    const plan = join(dir, 'plan-limit.json');
    const env = { RAMPART_POLICIES: 'policies', RAMPART_API_URL: '', RAMPART_API_TOKEN: '', EMULATOR: 'true', FORMAT: 'text', PLAN_JSON: plan, IMPACT: 'false', IMPACT_WINDOW: '7d' };
    const limited = await runStep('plan', { ...env, IMPACT_LIMIT: '0' });
    expect(limited.status).toBe(1);
    expect(readFileSync(join(dir, 'plan-errors.txt'), 'utf8')).toMatch(/--impact-limit/);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({ impact: { limit: 0, window_seconds: 604_800 } });
  });

  it('validate: an invalid policy fails the step and leaves its diagnostics for the comment', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'a.yaml'), 'version: 1\nclient: x\napplication: 7\n');
    const result = await runStep('validate', { RAMPART_POLICIES: bad, FORMAT: 'github' });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^::error file=/m);
    expect(readFileSync(join(dir, 'validate-errors.txt'), 'utf8')).toMatch(/a\.yaml:2:9: error: .*\[invalid-id\]/);
  });
});
