/**
 * `plan` and `apply` show the warnings `validate` shows (host bits, an empty
 * file, an expired entry), at file:line:col, on stderr: stdout stays the plan.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';
import { CLIENT, parseJson, startHarness, type Harness } from '../apply/harness.js';

let harness: Harness | undefined;
let policies: PolicyDir | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await policies?.cleanup();
  policies = undefined;
});

const POLICY = `version: 1
client: ${CLIENT}
application: 7
ip_lists:
  deny:
    - ips: [10.0.0.5/24]
    - ips: [198.51.100.7]
      expires: 2020-01-01
`;

describe('policy warnings in plan and apply', () => {
  it.each([
    ['plan', ['--format', 'json']],
    ['apply', ['--format', 'json', '--dry-run']],
    ['plan', []],
  ] as const)('%s %j prints them on stderr with file:line:col', async (command, args) => {
    harness = await startHarness();
    policies = await policyDir({ 'shop.yaml': POLICY, 'empty.yaml': '' });
    const result = await harness.cli(command, 'policies', args, { cwd: policies.root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('policies/shop.yaml:6:13: warning: ');
    expect(result.stderr).toMatch(/policies\/shop\.yaml:6:13: warning: .*10\.0\.0\.0\/24.* \[host-bits\]/);
    expect(result.stderr).toMatch(/policies\/shop\.yaml:8:16: warning: .* \[expired\]/);
    expect(result.stderr).toMatch(/policies\/empty\.yaml:1:1: warning: .* \[empty-file\]/);
    if ((args as readonly string[]).includes('json')) expect(parseJson(result)).toHaveProperty('changes');
    expect(result.stdout).not.toContain('warning');
  });
});
