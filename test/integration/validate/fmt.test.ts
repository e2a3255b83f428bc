/** `rampart fmt` and `fmt --check` over a policy directory, in process. */
import { lstat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

let dir: PolicyDir | undefined;
afterEach(async () => dir?.cleanup());

const UNSORTED = 'version: 1\nclient: 10042\napplication: 7\nip_lists:\n  deny:\n    # farm\n    - ips: [203.0.113.0/24, 198.51.100.7/32]\n';

describe('rampart fmt', () => {
  it('--check lists the files that would change and exits 1; fmt rewrites them; then --check passes', async () => {
    dir = await policyDir({ 'shop.yaml': UNSORTED, 'ok.yaml': 'version: 1\nclient: 10042\napplication: 8\nmode: block\n', 'ci/pipeline.yaml': 'b: [2, 1]\n' });
    await dir.write('.rampartignore', 'ci/\n');
    const check = await runCliInProcess(['fmt', '--check', '--policies', 'policies'], { cwd: dir.root });
    expect(check.code).toBe(1);
    expect(check.stdout).toBe('policies/shop.yaml\n');
    expect(check.stderr).toMatch(/1 file\(s\) not in canonical form/);
    expect(await dir.read('shop.yaml')).toBe(UNSORTED);

    const write = await runCliInProcess(['fmt', '--policies', 'policies'], { cwd: dir.root });
    expect(write.code).toBe(0);
    expect(write.stdout).toBe('policies/shop.yaml\n');
    expect(await dir.read('shop.yaml')).toContain('    # farm\n    - ips: [198.51.100.7, 203.0.113.0/24]\n');
    // Ignored files are not policies: never rewritten.
    expect(await dir.read('ci/pipeline.yaml')).toBe('b: [2, 1]\n');
    expect((await runCliInProcess(['fmt', '--check', '--policies', 'policies'], { cwd: dir.root })).code).toBe(0);
  });

  it('--check --diff prints what would change as a unified diff, changes nothing, and exits 1', async () => {
    dir = await policyDir({ 'shop.yaml': UNSORTED });
    const check = await runCliInProcess(['fmt', '--check', '--diff', '--policies', 'policies'], { cwd: dir.root });
    expect(check.code).toBe(1);
    expect(check.stdout).toBe([
      '--- a/policies/shop.yaml', '+++ b/policies/shop.yaml', '@@ -4,4 +4,4 @@', ' ip_lists:', '   deny:', '     # farm',
      '-    - ips: [203.0.113.0/24, 198.51.100.7/32]', '+    - ips: [198.51.100.7, 203.0.113.0/24]', '',
    ].join('\n'));
    expect(await dir.read('shop.yaml')).toBe(UNSORTED);
  });

  it('--diff without --check prints the diff and still rewrites the files, as terraform fmt -diff does; --help says so', async () => {
    dir = await policyDir({ 'shop.yaml': UNSORTED });
    const write = await runCliInProcess(['fmt', '--diff', '--policies', 'policies'], { cwd: dir.root });
    expect(write.code, write.stderr).toBe(0);
    expect(write.stdout).toContain('+    - ips: [198.51.100.7, 203.0.113.0/24]');
    expect(await dir.read('shop.yaml')).toContain('    - ips: [198.51.100.7, 203.0.113.0/24]\n');
    const help = await runCliInProcess(['fmt', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('the files are still rewritten, as terraform fmt -diff does (for a preview that writes nothing: --check --diff)');
  });

  it('rewrites a linked policy file through its link, which stays a link', async () => {
    dir = await policyDir({ 'shared/base.yaml': UNSORTED });
    await symlink(join(dir.dir, 'shared', 'base.yaml'), join(dir.dir, 'shop.yaml'));
    // The shared folder is another application's copy: only the link is a policy here.
    await dir.write('.rampartignore', 'shared/\n');
    const write = await runCliInProcess(['fmt', '--policies', 'policies'], { cwd: dir.root });
    expect(write.code, write.stderr).toBe(0);
    expect((await lstat(join(dir.dir, 'shop.yaml'))).isSymbolicLink()).toBe(true);
    expect(await dir.read('shared/base.yaml')).toContain('- ips: [198.51.100.7, 203.0.113.0/24]');
  });

  it('a renamed key takes its new name, its value and comment kept', async () => {
    dir = await policyDir({ 'g.yaml': 'version: 1\nclient: 10042\napplication: 7\nrules:\n  - name: g\n    type: graphql_detection\n    mode: block\n    max_alias_size_kb: 3 # a few\n' });
    const write = await runCliInProcess(['fmt', '--policies', 'policies'], { cwd: dir.root });
    expect(write.code, write.stderr).toBe(0);
    expect(await dir.read('g.yaml')).toContain('    max_aliases: 3 # a few\n');
  });

  it('names a file that does not parse at file:line:col, leaves it, and exits 1', async () => {
    dir = await policyDir({ 'broken.yaml': 'version: 1\nrules: [a, b\n' });
    const result = await runCliInProcess(['fmt', '--policies', 'policies'], { cwd: dir.root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/policies\/broken\.yaml:\d+:\d+: .*\(left as it is\)/);
    expect(await dir.read('broken.yaml')).toBe('version: 1\nrules: [a, b\n');
  });

  it('the sample policies are in canonical form', async () => {
    const result = await runCliInProcess(['fmt', '--check', '--policies', 'policies']);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });
});
