import { afterEach, describe, expect, it } from 'vitest';
import { loadPolicies } from '../../../src/policy/index.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const POLICY = 'version: 1\nclient: 10042\napplication: 7\nmode: monitoring\n';
let dir: PolicyDir | undefined;
afterEach(async () => dir?.cleanup());

describe('.rampartignore', () => {
  it('leaves out what it names (gitignore syntax: directories, globs, negation), and nothing else', async () => {
    dir = await policyDir({
      'shop.yaml': POLICY,
      'ci/pipeline.yaml': 'stages: [ not, a, policy',
      'helm/app.values.yaml': 'replicas: 2\n',
      'helm/keep.values.yaml': POLICY.replace('application: 7', 'application: 8'),
      'nested/deep/tests.yml': 'fixtures: true\n',
    });
    await dir.write('.rampartignore', '# not policies\nci/\n*.values.yaml\n!keep.values.yaml\n**/deep/\n');
    const result = await loadPolicies(dir.dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.files.map((f) => f.replace(/^.*policies\//, ''))).toEqual(['helm/keep.values.yaml', 'shop.yaml']);
  });

  it('without the file every YAML file is a policy: the same directory is invalid', async () => {
    dir = await policyDir({ 'shop.yaml': POLICY, 'ci/pipeline.yaml': 'stages: [ not, a, policy' });
    const result = await loadPolicies(dir.dir);
    expect(result.diagnostics.some((d) => d.severity === 'error' && d.file.endsWith('ci/pipeline.yaml'))).toBe(true);
  });
});
