/** Annotation paths from the repository root when the policies live in a subdirectory (a monorepo). */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryPath } from '../../../src/github-commands.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

describe('repositoryPath', () => {
  it('maps a path relative to the working directory to one from the workspace root', () => {
    const path = repositoryPath('/repo', '/repo/infra/waf');
    expect(path('policies/shop.yaml')).toBe('infra/waf/policies/shop.yaml');
    expect(path('/repo/infra/waf/policies/a.yaml')).toBe('infra/waf/policies/a.yaml');
  });

  it('leaves paths alone outside a workspace or outside it', () => {
    expect(repositoryPath(undefined, '/repo/x')('policies/a.yaml')).toBe('policies/a.yaml');
    expect(repositoryPath('/repo', '/elsewhere')('policies/a.yaml')).toBe('policies/a.yaml');
  });
});

describe('validate --format github in a monorepo', () => {
  let dir: PolicyDir;
  beforeAll(async () => {
    dir = await policyDir({ 'shop.yaml': 'version: 1\nclient: x\napplication: 7\n' });
  });
  afterAll(async () => dir.cleanup());

  it('annotates the file by its path from the repository root', async () => {
    // The workspace is two levels above the policy directory; the run happens in the policy directory's parent.
    const cwd = join(dir.dir, '..');
    const workspace = join(cwd, '..');
    const result = await runCliInProcess(['validate', '--policies', 'policies', '--format', 'github'], { cwd, env: { GITHUB_WORKSPACE: workspace } });
    expect(result.code).toBe(1);
    const prefix = `${cwd.slice(workspace.length + 1)}/policies/shop.yaml`;
    expect(result.stdout).toContain(`::error file=${prefix},line=2,col=`);
  });
});
