/** action.yml and the example workflow: metadata, shells, and secrets passed through env only. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '../../..');

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  if?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description?: string; value?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const runSteps = action.runs.steps.filter((s) => s.run !== undefined);

describe('action.yml', () => {
  it('has a name, a description and a composite runs section', () => {
    expect(action.name).toBeTruthy();
    expect(action.description.length).toBeGreaterThan(20);
    expect(action.runs.using).toBe('composite');
  });

  it('declares every input the docs name, each with a description', () => {
    const names = ['policies', 'api-url', 'api-token', 'format', 'comment', 'github-token', 'working-directory', 'version'];
    for (const name of names) {
      expect(action.inputs[name], name).toBeDefined();
      expect(action.inputs[name]?.description, name).toMatch(/\w{3}/);
    }
    expect(action.inputs['github-token']?.default).toBe('${{ github.token }}');
    expect(action.inputs.comment?.default).toBe('true');
    for (const [name, output] of Object.entries(action.outputs)) expect(output.description, name).toBeTruthy();
  });

  it('gives every run step a shell', () => {
    expect(runSteps.length).toBeGreaterThanOrEqual(4);
    for (const step of runSteps) expect(step.shell, step.name).toBe('bash');
    for (const step of action.runs.steps) expect(step.run !== undefined || step.uses !== undefined, step.name).toBe(true);
  });

  it('never interpolates an expression into a command: inputs and secrets arrive through env', () => {
    for (const step of runSteps) expect(step.run, step.name).not.toContain('${{');
    const tokenSteps = runSteps.filter((s) => Object.values(s.env ?? {}).some((v) => v.includes('inputs.api-token')));
    expect(tokenSteps.length).toBeGreaterThan(0);
    for (const step of tokenSteps) expect(step.env?.RAMPART_API_TOKEN).toBe('${{ inputs.api-token }}');
    const commentStep = runSteps.find((s) => s.run?.includes('ci comment'));
    expect(commentStep?.env?.GITHUB_TOKEN).toBe('${{ inputs.github-token }}');
  });

  it('validates, plans with --detailed-exitcode and --out, and comments the saved plan, not a second read', () => {
    const script = runSteps.map((s) => s.run).join('\n');
    expect(script).toMatch(/rampart validate --format "\$FORMAT"/);
    expect(script).toMatch(/rampart plan .*--format "\$FORMAT" --detailed-exitcode --out "\$PLAN_JSON"/);
    // One plan: the comment and the artifact come from the saved file.
    expect(script.match(/rampart plan /g)).toHaveLength(1);
    expect(script).toContain('rampart show "$PLAN_JSON" --format markdown > "$PLAN_MD"');
    expect(script).toContain('rampart ci comment --provider github --plan "$PLAN_JSON"');
    const plan = action.runs.steps.find((s) => s.id === 'plan');
    // GitHub's bash runs with -e: without +e, exit 2 (changes) would end the step as a failure before the check.
    expect(plan?.run).toMatch(/^(#.*\n)*set \+e /);
    expect(action.runs.steps.find((s) => s.id === 'validate')?.run).toMatch(/^(#.*\n)*set \+e /);
    // Exit 2 (changes) is a success for the step; 1 fails it.
    expect(plan?.run).toContain('if [ "$code" -ne 0 ] && [ "$code" -ne 2 ]; then exit "$code"; fi');
    expect(action.runs.steps.find((s) => s.run?.includes('ci comment'))?.if).toContain("inputs.comment == 'true'");
  });

  it('comments on failure too: the failed step and its errors replace the stale plan', () => {
    const comment = action.runs.steps.find((s) => s.run?.includes('ci comment'));
    // Also after a failed step; not after a cancelled run, whose newer run comments instead.
    expect(comment?.if).toMatch(/^\(!cancelled\(\)\) && /);
    expect(comment?.run).toContain('rampart ci comment --provider github --failed validate --errors "$ERRORS"');
    expect(comment?.run).toContain('rampart ci comment --provider github --failed plan --errors "$ERRORS"');
    expect(comment?.env?.VALIDATE).toBe('${{ steps.validate.outcome }}');
    expect(comment?.env?.PLAN).toBe('${{ steps.plan.outcome }}');
    // Both failing steps leave their errors where the comment reads them.
    const validate = action.runs.steps.find((s) => s.id === 'validate');
    expect(validate?.run).toContain('rampart validate --format text > "$ERRORS"');
    expect(action.runs.steps.find((s) => s.id === 'plan')?.run).toContain('2> >(tee "$ERRORS" >&2)');
  });

  it('uploads the saved plan as an artifact for the apply-on-merge job', () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.name).toBe('${{ inputs.artifact-name }}');
    expect(upload?.with?.path).toContain('rampart-plan.json');
    expect(action.inputs['artifact-name']?.default).toBe('rampart-plan');
  });
});

describe('docs/ci/rampart-plan.yml (the example workflow)', () => {
  const workflow = parse(readFileSync(join(ROOT, 'docs/ci/rampart-plan.yml'), 'utf8')) as {
    on: Record<string, unknown>;
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Step[] }>;
  };

  it('runs on pull requests with the least permissions the comment needs', () => {
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });

  it('passes the token from a secret and uses the action', () => {
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const step = steps.find((s) => s.with?.['api-token'] !== undefined);
    expect(step?.with?.['api-token']).toBe('${{ secrets.RAMPART_API_TOKEN }}');
    for (const s of steps) if (s.run) expect(s.run).not.toContain('${{');
  });
});

describe('docs/ci/rampart-apply.yml and rampart-drift.yml (apply on merge, nightly drift check)', () => {
  type Workflow = { on: Record<string, unknown>; permissions: Record<string, string>; jobs: Record<string, { if?: string; steps: Step[] }> };
  const load = (name: string) => parse(readFileSync(join(ROOT, 'docs/ci', name), 'utf8')) as Workflow;

  it('applies the reviewed saved plan of a merged pull request, one apply at a time', () => {
    const workflow = load('rampart-apply.yml') as Workflow & { concurrency: { 'cancel-in-progress': boolean } };
    expect(workflow.on.pull_request).toMatchObject({ types: ['closed'] });
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    const job = Object.values(workflow.jobs)[0];
    expect(job?.if).toBe('github.event.pull_request.merged == true');
    const script = job?.steps.map((s) => s.run ?? '').join('\n') ?? '';
    expect(script).toContain('--workflow rampart-plan.yml --commit "$HEAD_SHA"');
    expect(script).toContain('--name rampart-plan');
    expect(script).toContain('rampart apply --plan reviewed/rampart-plan.json');
    for (const s of job?.steps ?? []) if (s.run) expect(s.run, s.name).not.toContain('${{');
  });

  it('plans nightly with --detailed-exitcode and turns drift into an issue and a failed run', () => {
    const workflow = load('rampart-drift.yml');
    expect(Object.keys(workflow.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const script = steps.map((s) => s.run ?? '').join('\n');
    expect(script).toContain('rampart plan --detailed-exitcode --out plan.json');
    expect(script).toContain('rampart show plan.json --format markdown > drift.md');
    expect(steps.find((s) => s.run?.includes('gh issue create'))?.if).toBe("steps.plan.outputs.exitcode == '2'");
    for (const s of steps) if (s.run) expect(s.run, s.name).not.toContain('${{');
  });
});

describe('the example workflows pass their inputs through env:', () => {
  const files = readdirSync(join(ROOT, 'docs/ci')).filter((name) => name.endsWith('.yml'));

  it.each(files)('%s never splices an expression an outsider controls into a shell line', (name) => {
    const workflow = parse(readFileSync(join(ROOT, 'docs/ci', name), 'utf8')) as { jobs: Record<string, { steps: { run?: string }[] }> };
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) {
        // `inputs`, event payloads and head refs are text someone else chose: a shell line must read them from env.
        expect(step.run ?? '', `${name}: ${step.run ?? ''}`).not.toMatch(/\$\{\{\s*(?:inputs|github\.event|github\.head_ref)/);
      }
    }
  });
});
