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

/** Runs apply on a pseudo-terminal, typing `typed` once the question shows. */
function atTerminal(args: string[], typed: string): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, 'apply', '--api-url', emulator.url, '--policies', policies.dir, '--settle-timeout', '5s', ...args]
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
  }, 30_000);
});
