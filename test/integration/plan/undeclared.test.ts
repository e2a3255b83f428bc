/**
 * A plan of a scratch directory against an account another directory
 * applied: before its changes it says how many objects of the owner these
 * policies do not declare and would delete, and the ways out.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { useTestEmulator } from '../../helpers/emulator.js';
import { usePolicyDirs, type PolicyDir } from '../../helpers/policies.js';

const SCRATCH = `version: 1
client: 10042
application: all
rules:
  - name: try-it
    type: vpatch
    attack: sqli
    point: [[get, id]]
`;

const emulator = useTestEmulator();
const dirs = usePolicyDirs();

async function run(dir: PolicyDir, url: string, args: string[]) {
  return runCliInProcess([...args, '--policies', 'policies', '--api-url', url, '--log-level', 'warn'], { cwd: dir.root });
}

describe('a plan that deletes what another directory declares', () => {
  it('says before the changes how many objects of the owner it would delete, and how to plan without deleting them', async () => {
    const { url } = await emulator.start();
    const real = await dirs.sample();
    const scratch = await dirs.make({ 'scratch.yaml': SCRATCH });
    expect((await run(real, url, ['apply', '--auto-approve'])).code).toBe(0);

    const text = await run(scratch, url, ['plan']);
    expect(text.code, text.stderr).toBe(0);
    const [first] = text.stdout.split('\n');
    expect(first).toMatch(/^24 objects owned by rampart are not declared in these policies and would be deleted \(last declared in: not recorded, since an owner mark keeps a rule's name and not its file; rule names: admin-blocking, block-legacy-admin, .* and \d+ more\)\. If another directory declares them, plan only these files with --target FILE, or give these policies an owner of their own with --owner NAME\.$/);
    expect(text.stdout).toMatch(/^Plan: 1 to create, 0 to update, 24 to delete/m);

    const json = JSON.parse((await run(scratch, url, ['plan', '--format', 'json'])).stdout) as { undeclared?: { count: number; files_unknown: number } };
    expect(json.undeclared).toMatchObject({ count: 24, files: [], files_unknown: 24 });
    const markdown = await run(scratch, url, ['plan', '--format', 'markdown']);
    expect(markdown.stdout).toContain('> [!WARNING]\n> 24 objects owned by rampart are not declared in these policies');

    // The ways out the line names: another owner, or only these files; neither deletes anything.
    for (const args of [['--owner', 'scratch'], ['--target', 'policies/scratch.yaml']]) {
      const out = await run(scratch, url, ['plan', ...args]);
      expect(out.stdout, args.join(' ')).not.toContain('not declared in these policies');
      expect(out.stdout, args.join(' ')).toMatch(/^Plan: 1 to create, 0 to update, 0 to delete/m);
    }
  });
});
