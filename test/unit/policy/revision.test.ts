import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPolicyRevision, revisionFromPath } from '../../../src/policy/revision.js';

const HASH = 'a'.repeat(8) + '0123456789abcdef0123456789abcdef';

describe('the policy revision', () => {
  it('reads git-sync worktree hashes and ConfigMap data directories from the resolved path', () => {
    expect(revisionFromPath(`/git/.worktrees/${HASH}/policies`)).toEqual({ revision: HASH, source: 'git-sync' });
    expect(revisionFromPath(`/tmp/git/rev-${HASH}/policies/shop`)).toEqual({ revision: HASH, source: 'git-sync' });
    expect(revisionFromPath('/etc/rampart/..2026_11_23_18_26_21.123456789')).toEqual({ revision: '..2026_11_23_18_26_21.123456789', source: 'configmap' });
    expect(revisionFromPath('/srv/policies')).toBeUndefined();
    // Not a hash: too short, or upper case.
    expect(revisionFromPath('/git/.worktrees/abc123/policies')).toBeUndefined();
  });

  it('reads a ConfigMap mount\'s ..data link, and HEAD of a plain checkout (branch, packed, detached)', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'rampart-revision-'));
    const mount = path.join(root, 'mount');
    await mkdir(path.join(mount, '..2026_01_02_03_04_05.42'), { recursive: true });
    await symlink('..2026_01_02_03_04_05.42', path.join(mount, '..data'));
    expect(await readPolicyRevision(mount)).toEqual({ revision: '..2026_01_02_03_04_05.42', source: 'configmap' });

    const repo = path.join(root, 'repo');
    await mkdir(path.join(repo, '.git', 'refs', 'heads'), { recursive: true });
    await mkdir(path.join(repo, 'policies'));
    await writeFile(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(path.join(repo, '.git', 'refs', 'heads', 'main'), `${HASH}\n`);
    expect(await readPolicyRevision(path.join(repo, 'policies'))).toEqual({ revision: HASH, source: 'git' });

    const packedHash = 'b'.repeat(40);
    await writeFile(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/release\n');
    await writeFile(path.join(repo, '.git', 'packed-refs'), `# pack-refs with: peeled\n${packedHash} refs/heads/release\n`);
    expect(await readPolicyRevision(path.join(repo, 'policies'))).toEqual({ revision: packedHash, source: 'git' });

    await writeFile(path.join(repo, '.git', 'HEAD'), `${'c'.repeat(40)}\n`);
    expect((await readPolicyRevision(repo))?.revision).toBe('c'.repeat(40));

    await mkdir(path.join(root, 'none'));
    expect(await readPolicyRevision(path.join(root, 'none'))).toBeUndefined();
  });

  it('marks a checkout whose policy files differ from the commit <sha>-dirty, as git describe --dirty does', async () => {
    const repo = await mkdtemp(path.join(tmpdir(), 'rampart-revision-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    await mkdir(path.join(repo, 'policies'));
    await writeFile(path.join(repo, 'policies', 'shop.yaml'), 'version: 1\n');
    git('add', '.');
    git('commit', '-qm', 'policies');
    const head = git('rev-parse', 'HEAD');
    const policies = path.join(repo, 'policies');
    expect(await readPolicyRevision(policies)).toEqual({ revision: head, source: 'git' });
    await writeFile(path.join(policies, 'shop.yaml'), 'version: 1\n# edited\n');
    expect(await readPolicyRevision(policies)).toEqual({ revision: `${head}-dirty`, source: 'git' });
    // A change outside the policy directory is not the policies'.
    git('checkout', '-q', '--', 'policies');
    await writeFile(path.join(repo, 'README.md'), 'notes\n');
    expect(await readPolicyRevision(policies)).toEqual({ revision: head, source: 'git' });
  });
});
