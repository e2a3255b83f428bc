/**
 * A policy file that is a link to a secret (the pod's token file) must not
 * print the secret: the link is refused by name without being read, and,
 * independently, a known secret is redacted from every diagnostic, the status
 * page, `/readyz`, the pause reason and a PR comment.
 */
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupDaemons } from '../../helpers/daemon.js';
import { startInProcessDaemon } from '../../helpers/daemon-in-process.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const VALID = 'version: 1\nclient: 10042\napplication: 7\nrules:\n  - { name: r, type: vpatch, attack: any, point: [[header, HOST]] }\n';

let emulator: TestEmulator;
let policies: PolicyDir;
let tokenFile: string;
beforeEach(async () => {
  emulator = await startTestEmulator();
  policies = await policyDir({ 'shop.yaml': VALID });
  // The token lives outside the policy directory, as a mounted secret does.
  tokenFile = join(policies.root, 'token');
  await writeFile(tokenFile, `${TEST_TOKEN}\n`);
});
afterEach(async () => {
  await cleanupDaemons();
  await emulator.close();
  await policies.cleanup();
});

const cli = (args: string[], env: Record<string, string> = {}) => runCliInProcess(args, { env: { RAMPART_API_TOKEN_FILE: tokenFile, ...env } });

describe('a link to a secret in the policy directory', () => {
  it('is refused by name and never read: validate and plan print neither the token nor a partial plan', async () => {
    await symlink(tokenFile, join(policies.dir, 'evil.yaml'));
    for (const command of [['validate'], ['plan', '--api-url', emulator.url]]) {
      const result = await cli([...command, '--policies', policies.dir]);
      expect(result.code, command.join(' ')).toBe(1);
      const output = result.stdout + result.stderr;
      expect(output).toContain('evil.yaml');
      expect(output).toContain('a link to something outside the policy directory: not read');
      expect(output).not.toContain(TEST_TOKEN);
    }
    expect(emulator.control.counts()['POST /v1/objects/hint/create'] ?? 0).toBe(0);
  });

  it('a link inside the policy directory is still followed (git-sync\'s own links)', async () => {
    await symlink(join(policies.dir, 'shop.yaml'), join(policies.dir, 'alias.yaml'));
    const result = await cli(['validate', '--policies', policies.dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('a secret a policy file quotes is redacted from the diagnostic, whatever its source', async () => {
    await policies.write('copied.yaml', `${TEST_TOKEN}\n`);
    const viaFile = await cli(['validate', '--policies', policies.dir]);
    expect(viaFile.code).toBe(1);
    expect(viaFile.stdout).toContain('copied.yaml:1:1');
    expect(viaFile.stdout).toContain('[redacted]');
    expect(viaFile.stdout + viaFile.stderr).not.toContain(TEST_TOKEN);
    const viaEnv = await runCliInProcess(['validate', '--policies', policies.dir, '--format', 'json'], { env: { RAMPART_API_TOKEN: TEST_TOKEN } });
    expect(viaEnv.stdout).not.toContain(TEST_TOKEN);
  });

  it('the daemon\'s status page and /readyz show the refusal and the redaction, never the token', async () => {
    await symlink(tokenFile, join(policies.dir, 'evil.yaml'));
    await policies.write('copied.yaml', `${TEST_TOKEN}\n`);
    await symlink(tokenFile, join(policies.dir, '.rampart-pause'));
    const daemon = await startInProcessDaemon({ apiUrl: emulator.url, policies: policies.dir });
    await daemon.waitForCycle(() => true, 'the first cycle');
    const ready = await daemon.get('/readyz');
    const page = await daemon.get('/');
    for (const answer of [ready, page]) {
      expect(answer.text).not.toContain(TEST_TOKEN);
    }
    expect(ready.text + page.text).toContain('[redacted]');
  });

  it('a PR comment of a failed step redacts what the step printed', async () => {
    const errors = join(policies.root, 'errors.txt');
    await writeFile(errors, `policies/evil.yaml:1:1: error: the document must be a mapping, got "${TEST_TOKEN}"\n`);
    const result = await cli(['ci', 'comment', '--failed', 'validate', '--errors', errors, '--print']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('[redacted]');
    expect(result.stdout).not.toContain(TEST_TOKEN);
  });
});
