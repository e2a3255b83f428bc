/**
 * Addresses as the user wrote them reach the account unchanged in meaning:
 * `::1.2.3.4` stays that IPv6 address (not the IPv4-mapped `::ffff:1.2.3.4`),
 * and a prefix with a leading zero is an error at file:line:col, never read
 * as another prefix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { CLIENT, startHarness, type Harness } from '../apply/harness.js';

let harness: Harness | undefined;
let policies: PolicyDir | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await policies?.cleanup();
  policies = undefined;
});

const head = `version: 1\nclient: ${CLIENT}\napplication: 7\n`;

describe('IPv6 with an embedded IPv4 address', () => {
  it('::1.2.3.4 and ::ffff:1.2.3.4 are two addresses, created as written', async () => {
    harness = await startHarness();
    policies = await policyDir({ 'a.yaml': `${head}ip_lists:\n  deny:\n    - ips: ["::1.2.3.4", "::ffff:1.2.3.4"]\n` });
    const applied = await harness.cli('apply', policies.dir, ['--settle-timeout', '5s']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain('ip-duplicate');
    expect(harness.ipObjects().map((o) => o.subnet).sort()).toEqual(['::102:304/128', '::ffff:102:304/128']);

    const plan = await harness.cli('plan', policies.dir, ['--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

describe('a prefix length with a leading zero', () => {
  it('is an invalid-cidr error at file:line:col', async () => {
    policies = await policyDir({ 'a.yaml': `${head}ip_lists:\n  deny:\n    - ips:\n        - 10.0.0.0/8\n        - 1.2.3.0/024\n` });
    const result = await runCliInProcess(['validate', '--policies', 'policies'], { cwd: policies.root });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/policies\/a\.yaml:8:11: error: "1\.2\.3\.0\/024": a prefix length has no leading zero \(did you mean \/24\?\) \[invalid-cidr\]/);
  });
});
