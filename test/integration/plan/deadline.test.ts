/**
 * A host that accepts the connection and never answers: one-shot commands give
 * up at `--timeout` (not after every attempt's full request timeout, over 3
 * minutes), naming the host and the cause. `run --once` and `export` are
 * spawned processes (they must exit, not hang); `plan` and `apply` run the
 * CLI's main in process (their spawned runs are elsewhere).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { freePort } from '../../helpers/daemon.js';
import { useTestEmulator } from '../../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';

const emulator = useTestEmulator();
let policies: PolicyDir | undefined;
afterEach(async () => {
  await policies?.cleanup();
  policies = undefined;
});

function argsFor(command: string, url: string, dir: PolicyDir): string[] {
  const base = ['--api-url', url, '--timeout', '600ms'];
  if (command === 'export') return ['export', '--client', '10042', '--out', dir.scratch('export'), ...base];
  if (command === 'run --once') return ['run', '--once', '--policies', dir.dir, '--listen', '127.0.0.1:0', ...base];
  return [command, '--policies', dir.dir, ...base];
}

describe('--timeout', () => {
  it.each(['plan', 'apply', 'export', 'run --once'])('%s against a host that never answers fails at the deadline', async (command) => {
    const { url, control } = await emulator.start();
    for (const route of ['POST /v1/objects/hint', 'GET /v4/ip_rules']) control.addFault({ route, kind: 'hang', count: 1000 });
    policies = await samplePolicyDir();
    const started = Date.now();
    const runner = command === 'run --once' || command === 'export' ? runCli : runCliInProcess;
    const result = await runner(argsFor(command, url, policies), { timeoutMs: 20_000 });
    const seconds = (Date.now() - started) / 1000;
    expect(result.signal, 'the process had to be killed').toBeNull();
    expect(result.code).toBe(1);
    expect(seconds).toBeLessThan(10);
    const host = url.replace(/\/$/, '');
    expect(result.stderr).toContain(`no complete answer from ${host} within 600ms (--timeout): the calls in flight had no answer yet`);
    expect(result.stderr).toContain('[api_timeout]');
  });

  it('names the failure it was retrying when time ran out', async () => {
    policies = await samplePolicyDir();
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await runCliInProcess(['plan', '--policies', policies.dir, '--api-url', url, '--timeout', '1s'], {
      env: { RAMPART_RETRY_BASE_MS: '1000' }, // one-shot patience with a refused port is 5 × base: past the deadline
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`no complete answer from ${url} within 1s \\(--timeout\\); last failure: .*ECONNREFUSED.*\\[api_timeout\\]`));
  });
});
