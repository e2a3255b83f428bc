/**
 * The action's validate and plan steps run as GitHub runs them (`bash
 * --noprofile --norc -eo pipefail`), against the embedded emulator: a plan
 * with changes succeeds with exitcode 2, an invalid policy fails and leaves
 * its diagnostics for the failure comment.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, ROOT } from '../../helpers/cli.js';

interface Step { id?: string; run?: string }
const steps = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } }).runs.steps;
const script = (id: string): string => steps.find((s) => s.id === id)?.run ?? '';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-action-'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/rampart'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(dir, 'bin/rampart'), 0o755);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function runStep(id: string, env: Record<string, string>) {
  return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script(id)], {
    cwd: ROOT, encoding: 'utf8', timeout: 30_000,
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, GITHUB_OUTPUT: join(dir, `${id}.out`), ERRORS: join(dir, `${id}-errors.txt`), ...env },
  });
}

describe('the action steps under bash -e', () => {
  it('plan: changes (exit 2) are a successful step with exitcode=2 and the saved plan', () => {
    const plan = join(dir, 'plan.json');
    const result = runStep('plan', { RAMPART_POLICIES: 'policies', RAMPART_API_URL: '', RAMPART_API_TOKEN: '', EMULATOR: 'true', FORMAT: 'text', PLAN_JSON: plan });
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'plan.out'), 'utf8')).toBe(`exitcode=2\nplan-json=${plan}\nhas-changes=true\n`);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({ format_version: 4 });
  });

  it('plan with impact: the saved plan carries it; past impact-limit the step fails with the refusal for the comment', () => {
    const plan = join(dir, 'plan-impact.json');
    const env = { RAMPART_POLICIES: 'policies', RAMPART_API_URL: '', RAMPART_API_TOKEN: '', EMULATOR: 'true', FORMAT: 'text', PLAN_JSON: plan, IMPACT: 'true', IMPACT_WINDOW: '7d' };
    const result = runStep('plan', { ...env, IMPACT_LIMIT: '' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({ impact: { window_seconds: 604_800, complete: true } });
    const limited = runStep('plan', { ...env, IMPACT_LIMIT: '0' });
    expect(limited.status).toBe(1);
    expect(readFileSync(join(dir, 'plan-errors.txt'), 'utf8')).toMatch(/--impact-limit/);
  });

  it('plan with impact-limit alone: the limit is never dropped, and the saved plan carries it for apply --plan', () => {
    const plan = join(dir, 'plan-limit.json');
    const env = { RAMPART_POLICIES: 'policies', RAMPART_API_URL: '', RAMPART_API_TOKEN: '', EMULATOR: 'true', FORMAT: 'text', PLAN_JSON: plan, IMPACT: 'false', IMPACT_WINDOW: '7d' };
    const limited = runStep('plan', { ...env, IMPACT_LIMIT: '0' });
    expect(limited.status).toBe(1);
    expect(readFileSync(join(dir, 'plan-errors.txt'), 'utf8')).toMatch(/--impact-limit/);
    expect(JSON.parse(readFileSync(plan, 'utf8'))).toMatchObject({ impact: { limit: 0, window_seconds: 604_800 } });
  });

  it('validate: an invalid policy fails the step and leaves its diagnostics for the comment', () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'a.yaml'), 'version: 1\nclient: x\napplication: 7\n');
    const result = runStep('validate', { RAMPART_POLICIES: bad, FORMAT: 'github' });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^::error file=/m);
    expect(readFileSync(join(dir, 'validate-errors.txt'), 'utf8')).toMatch(/a\.yaml:2:9: error: .*\[invalid-id\]/);
  });
});
