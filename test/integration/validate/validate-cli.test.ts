/**
 * `rampart validate` as users run it: each output format, exit codes and the
 * GitHub step summary. Two runs are the built CLI in a child process (the
 * default directory, and a failure without a stack trace); the rest run the
 * CLI's main in process (test/helpers/cli-in-process.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../helpers/cli.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';

/** `rampart validate ...args` in process. */
async function run(args: string[], env: Record<string, string> = {}) {
  const { code, stdout, stderr } = await runCliInProcess(['validate', ...args], { env: { GITHUB_STEP_SUMMARY: undefined, RAMPART_POLICIES: undefined, ...env } });
  return { code, stdout, stderr };
}

/** The same, as a child process. */
function spawnRun(args: string[], env: Record<string, string> = {}, cwd = ROOT) {
  const result = spawnSync(process.execPath, [CLI, 'validate', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...cleanEnv(), ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The test runner's own CI variables must not leak into the child. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.GITHUB_STEP_SUMMARY;
  delete env.RAMPART_POLICIES;
  return env;
}

let dir: string;
const head = 'version: 1\nclient: 10042\napplication: 7\n';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-validate-'));
  await mkdir(join(dir, 'bad'));
  await writeFile(join(dir, 'bad', 'shop.yaml'), head + 'mode: blok\nip_lists:\n  deny:\n    - ips: [10.0.0.5/24, 300.0.0.1]\n');
  await writeFile(join(dir, 'bad', 'a,b.yaml'), 'version: 1\nclient: x\napplication: 7\n');
  await mkdir(join(dir, 'many'));
  const ips = Array.from({ length: 12 }, (_, i) => `10.${i}.0.1/8`).join(', ');
  const warn = Array.from({ length: 11 }, (_, i) => `192.0.${i}.9/24`).join(', ');
  await writeFile(join(dir, 'many', 'p.yaml'), head + `ip_lists:\n  deny:\n    - ips: [${ips}]\n  allow:\n    - ips: [${warn}]\n`);
  await mkdir(join(dir, 'warn'));
  await writeFile(join(dir, 'warn', 'p.yaml'), head + 'ip_lists:\n  deny:\n    - ips: [10.0.0.5/24]\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rampart validate', () => {
  it('accepts the sample policies (default ./policies) with exit 0', () => {
    const { code, stdout, stderr } = spawnRun([]);
    expect(stdout).toBe('5 policy files valid\n');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('prints every problem as file:line:col and exits 1', async () => {
    const { code, stdout, stderr } = await run(['--policies', join(dir, 'bad')]);
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/a,b\.yaml:2:9: error: client must be a positive integer .* \[invalid-id\]$/);
    expect(lines[1]).toMatch(/shop\.yaml:4:7: error: mode must be one of .*did you mean "block"\? \[invalid-value\]$/);
    expect(lines[2]).toMatch(/shop\.yaml:7:13: warning: .*read as 10\.0\.0\.0\/24.*\[host-bits\]$/);
    expect(lines[3]).toMatch(/shop\.yaml:7:26: error: "300\.0\.0\.1" is not .*\[invalid-cidr\]$/);
    expect(lines[4]).toBe('2 policy files: 3 errors, 1 warning');
    expect(stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('takes the directory from RAMPART_POLICIES and allows warnings', async () => {
    const { code, stdout } = await run([], { RAMPART_POLICIES: join(dir, 'warn') });
    expect(code).toBe(0);
    expect(stdout).toContain('1 policy file valid (1 warning)');
    expect((await run([], { RAMPART_POLICIES: '' })).stdout).toBe('5 policy files valid\n');
  });

  it('prints JSON for machines', async () => {
    const { code, stdout } = await run(['--policies', join(dir, 'bad'), '--format', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { valid: boolean; files: string[]; errors: number; warnings: number; diagnostics: { code: string; line: number }[] };
    expect(report).toMatchObject({ valid: false, errors: 3, warnings: 1 });
    expect(report.files).toHaveLength(2);
    expect(report.diagnostics.map((d) => d.code)).toEqual(['invalid-id', 'invalid-value', 'host-bits', 'invalid-cidr']);
    const ok = JSON.parse((await run(['--format', 'json'])).stdout) as { valid: boolean; errors: number };
    expect(ok).toMatchObject({ valid: true, errors: 0, warnings: 0 });
  });

  it('prints GitHub annotations, escaped, and appends the step summary', async () => {
    const summary = join(dir, 'summary.md');
    await writeFile(summary, 'before\n');
    const { code, stdout } = await run(['--policies', join(dir, 'bad'), '--format', 'github'], { GITHUB_STEP_SUMMARY: summary });
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^::error file=.*a%2Cb\.yaml,line=2,col=9,title=rampart invalid-id::client must be/);
    expect(lines.some((l) => /^::warning file=.*shop\.yaml,line=7,col=13,title=rampart host-bits::/.test(l))).toBe(true);
    const text = await readFile(summary, 'utf8');
    expect(text.startsWith('before\n### Rampart policy validation: invalid')).toBe(true);
    expect(text).toContain('| ❌ |');
    expect(text).toContain('| invalid-cidr |');
  });

  it('caps annotations at 10 errors and 10 warnings; the summary has them all', async () => {
    const summary = join(dir, 'many.md');
    const { code, stdout } = await run(['--policies', join(dir, 'many'), '--format', 'github'], { GITHUB_STEP_SUMMARY: summary });
    expect(code).toBe(1);
    expect(stdout.split('\n').filter((l) => l.startsWith('::error ')).length).toBe(10);
    expect(stdout.split('\n').filter((l) => l.startsWith('::warning ')).length).toBe(10);
    expect(stdout).toContain('2 more errors not annotated');
    expect(stdout).toContain('1 more warnings not annotated');
    const rows = (await readFile(summary, 'utf8')).split('\n').filter((l) => l.startsWith('| ❌') || l.startsWith('| ⚠️'));
    expect(rows).toHaveLength(23);
  });

  it('fails clearly on a missing directory, without a stack trace', () => {
    const { code, stdout, stderr } = spawnRun(['--policies', join(dir, 'nope')]);
    expect(code).toBe(1);
    expect(stdout).toContain('policy directory not found');
    expect(stderr).toBe('');
  });

  it('rejects an unknown format', async () => {
    const { code, stderr } = await run(['--format', 'xml']);
    expect(code).toBe(1);
    expect(stderr).toContain('xml');
  });
});
