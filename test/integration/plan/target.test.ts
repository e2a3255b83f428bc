/**
 * `--target` as users run it against the emulator: a plan of one file, saved
 * and applied with `apply --plan` (the targets ride on the saved plan), and
 * `apply --target` writing only that file's changes while a removed file's
 * objects stay until a full plan.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rampartAgainst } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator();
  policies = await samplePolicyDir();
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

const rampart = rampartAgainst(() => emulator, () => policies);

describe('--target', () => {
  it('plans one file, leaves the rest out (deletes included), and a saved targeted plan applies as reviewed', async () => {
    expect((await rampart('apply', ['--auto-approve'])).code).toBe(0);
    await policies.edit('shop.yaml', 'mode: monitoring', 'mode: block');
    await policies.remove('false-positives.yaml');
    const full = JSON.parse((await rampart('plan', ['--format', 'json'])).stdout) as { summary: { update: number; delete: number } };
    expect(full.summary).toMatchObject({ update: 1, delete: 3 });

    const out = join(policies.root, 'plan.json');
    const planned = await rampart('plan', ['--target', 'shop.yaml', '--out', out]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/^Targeted: only file .*shop\.yaml is planned, and nothing outside it is deleted; 3 changes of the full plan are left out\./m);
    expect(planned.stdout).toMatch(/^Plan: 0 to create, 1 to update, 0 to delete/m);

    const applied = await rampart('apply', ['--plan', out]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: 0 created, 1 updated, 0 deleted/);
    // The removed file's rules are still there: only a full plan deletes them.
    const after = JSON.parse((await rampart('plan', ['--format', 'json'])).stdout) as { summary: { update: number; delete: number } };
    expect(after.summary).toMatchObject({ update: 0, delete: 3 });
  });

  it('apply --target writes only the named rule; a name that matches nothing is refused with a suggestion', async () => {
    await policies.edit('abuse.yaml', 'count: 20,', 'count: 30,');
    const applied = await rampart('apply', ['--target', 'login-brute-force', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: 1 created, 0 updated, 0 deleted/);
    const typo = await rampart('plan', ['--target', 'login-brute-forse']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/--target login-brute-forse names no policy file and no rule of the policies; did you mean "login-brute-force"\?/);
  });
});
