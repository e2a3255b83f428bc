/**
 * A `rampart` on the PATH of a shell script a test runs (the docs' blocks, the
 * action's steps) that costs no process of the CLI's own: a tiny client hands
 * each call's argv, cwd and environment to a runner in the test process, which
 * runs the CLI's main there (test/helpers/cli-in-process.ts) and answers with
 * its exit code, stdout and stderr, which the client prints and exits with. A
 * spawned CLI costs about a second of CPU to start; the client loads nothing
 * but node:http. Commands named in `spawned` (one a script leaves running in
 * the background) start the built CLI as a process instead.
 *
 * The test must not block its event loop while the script runs (spawn, not
 * spawnSync): the runner answers from it.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CLI, cliEnv } from './cli.js';
import { runCliInProcess } from './cli-in-process.js';

export interface CliRunner {
  /** Where the shim's client asks. */
  readonly url: string;
  close(): Promise<void>;
}

/** Runs each call's command in this process, one at a time (runCliInProcess borrows stdout and the environment). */
export async function startCliRunner(): Promise<CliRunner> {
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const { args, cwd, env } = JSON.parse(body) as { args: string[]; cwd: string; env: Record<string, string> };
      // The environment the client had, exactly: not merged over the tests' own (cliEnv), as a spawned CLI's is not.
      const unset = Object.fromEntries(Object.keys(cliEnv()).map((key) => [key, undefined]));
      const done = queue.then(() => runCliInProcess(args, { cwd, env: { ...unset, ...env } }));
      queue = done.catch(() => undefined);
      done.then(
        (result) => res.end(JSON.stringify({ code: result.code, stdout: result.stdout, stderr: result.stderr })),
        (error: unknown) => res.end(JSON.stringify({ code: 70, stdout: '', stderr: `rampart shim runner: ${String(error)}\n` })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Writes `rampart` (and its client) into `bin`, asking `runner`.
 * node:http rather than fetch, which loads a whole HTTP client first: a script calls the shim a dozen times.
 */
export async function writeCliShim(bin: string, runner: CliRunner, spawned: readonly string[] = []): Promise<void> {
  await writeFile(join(bin, 'client.mjs'), `
import { request } from 'node:http';
const ask = request(${JSON.stringify(runner.url)}, { method: 'POST' }, (answer) => {
  let body = '';
  answer.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => {
    const { code, stdout, stderr } = JSON.parse(body);
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    process.exitCode = code;
  });
});
ask.end(JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), env: process.env }));
`);
  await writeFile(join(bin, 'rampart'), [
    '#!/bin/sh',
    ...(spawned.length > 0 ? [`case "$1" in ${spawned.join('|')}) exec "${process.execPath}" "${CLI}" "$@";; esac`] : []),
    `exec "${process.execPath}" "${join(bin, 'client.mjs')}" "$@"`,
    '',
  ].join('\n'));
  await chmod(join(bin, 'rampart'), 0o755);
}
