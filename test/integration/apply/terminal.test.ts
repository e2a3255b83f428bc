/**
 * `apply` at a terminal (a real pseudo-terminal, through util-linux `script`):
 * it shows the plan and asks; anything but `yes` changes nothing; `yes` and
 * `--auto-approve` apply. Without a terminal nothing is asked (every other test).
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const CLI = join(import.meta.dirname, '..', '..', '..', 'dist', 'cli.js');
const hasScript = spawnSync('script', ['--version']).status === 0;
const POLICY = 'version: 1\nclient: 10042\napplication: 7\nrules:\n  - { name: r, type: vpatch, attack: any, point: [[header, X-T]] }\n';

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator();
  policies = await policyDir({ 'shop.yaml': POLICY });
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

/** Runs apply (or another command) on a pseudo-terminal, typing `typed` once the question shows. */
function atTerminal(args: string[], typed: string, command_ = 'apply'): Promise<{ code: number | null; output: string }> {
  const settle = command_ === 'apply' ? ['--settle-timeout', '5s'] : [];
  const command = [process.execPath, CLI, command_, '--api-url', emulator.url, '--policies', policies.dir, ...settle, ...args]
    .map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, RAMPART_API_TOKEN: TEST_TOKEN, NO_COLOR: '1' } });
    let output = '';
    let typedOnce = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!typedOnce && output.includes("Only 'yes' is accepted:")) {
        typedOnce = true;
        child.stdin.write(typed);
      }
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(!hasScript)('apply at a terminal', () => {
  it('asks after the plan; anything but yes changes nothing', async () => {
    const no = await atTerminal([], 'y\r');
    expect(no.output).toContain('Plan: 1 to create');
    expect(no.output).toContain("Apply these changes? Only 'yes' is accepted:");
    expect(no.output).toContain('Apply cancelled: nothing was changed.');
    expect(no.code).toBe(1);
    expect(emulator.control.counts()['POST /v1/objects/hint/create'] ?? 0).toBe(0);
  }, 20_000);

  it('yes applies; --auto-approve applies without asking', async () => {
    const yes = await atTerminal([], 'yes\r');
    expect(yes.code, yes.output).toBe(0);
    expect(emulator.control.counts()['POST /v1/objects/hint/create']).toBe(1);
    await policies.write('shop.yaml', POLICY.replace('X-T', 'X-U'));
    const auto = await atTerminal(['--auto-approve'], '');
    expect(auto.code, auto.output).toBe(0);
    expect(auto.output).not.toContain('Only \'yes\' is accepted');
    // The report is the last thing said: no log record after it at the default level.
    expect(auto.output.trimEnd().split('\n').at(-1)).toMatch(/^Apply complete: /);
    expect(auto.output).not.toMatch(/INFO/);
  }, 30_000);

  it('a one-shot command prints its result and nothing else; asked for, a log record is one line', async () => {
    await policies.write('shop.yaml', POLICY.replace('X-T', 'X-V'));
    const plain = await atTerminal([], '', 'plan');
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output.trimEnd().split('\n').at(-1)).toMatch(/^Plan: 1 to create/);
    const logged = await atTerminal(['--log-level', 'info'], '', 'plan');
    const record = logged.output.split('\n').find((line) => line.includes('plan ready')) ?? '';
    expect(record).toMatch(/INFO.*plan ready.*"create":1/);
  }, 30_000);
});
