/**
 * Runs a command the way `node dist/cli.js ...` does, in this process: the
 * same `main` (src/commands/main.ts), the same environment as test/helpers/cli.ts
 * (`cliEnv`), and the same result (exit code, stdout, stderr, JSON log lines).
 * A spawned CLI costs about a second of CPU to start; this costs next to
 * nothing, so tests of what a command does run here, and the spawned CLI is
 * kept for what only a process shows (signals, kills, exit without settling).
 *
 * Only one run at a time per test process: stdout, stderr (the streams, and
 * fd 1 and 2, which the logger writes to through `fs.write`), `process.env`
 * and `process.exitCode` are borrowed while it runs. Vitest runs the tests of
 * a file one after the other, so that holds.
 */
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { main } from '../../src/commands/main.js';
import { cliEnv, parseLogs, type CliOptions, type CliResult } from './cli.js';
import { TEST_TOKEN } from './emulator.js';

let running = false;

export async function runCliInProcess(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  if (running) throw new Error('runCliInProcess: one run at a time (stdout, stderr and the environment are borrowed)');
  running = true;
  let stdout = '';
  let stderr = '';
  const capture = (fd: 1 | 2, chunk: unknown): void => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    if (fd === 1) stdout += text;
    else stderr += text;
  };
  const saved = {
    env: process.env,
    cwd: process.cwd(),
    exitCode: process.exitCode,
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    writeSync: fs.writeSync,
    write: fs.write,
  };
  // Streams (plans, reports, warnings), and fd 1 and 2 as pino.destination(2) writes them.
  const streamWrite = (fd: 1 | 2) => ((chunk: unknown, ...rest: unknown[]): boolean => {
    capture(fd, chunk);
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = streamWrite(1);
  process.stderr.write = streamWrite(2);
  fs.writeSync = ((fd: number, buffer: unknown, ...rest: unknown[]) => {
    if (fd !== 1 && fd !== 2) return (saved.writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
    capture(fd, buffer);
    return typeof buffer === 'string' ? Buffer.byteLength(buffer) : (buffer as Uint8Array).byteLength;
  }) as typeof fs.writeSync;
  fs.write = ((fd: number, buffer: unknown, ...rest: unknown[]) => {
    if (fd !== 1 && fd !== 2) return (saved.write as (...a: unknown[]) => void)(fd, buffer, ...rest);
    capture(fd, buffer);
    const bytes = typeof buffer === 'string' ? Buffer.byteLength(buffer) : (buffer as Uint8Array).byteLength;
    const callback = rest.find((arg) => typeof arg === 'function') as ((error: null, written: number) => void) | undefined;
    process.nextTick(() => callback?.(null, bytes));
  }) as typeof fs.write;
  process.env = cliEnv(options.env);
  process.exitCode = undefined;
  if (options.cwd) process.chdir(options.cwd);
  try {
    const code = await main([process.execPath, 'rampart', ...args]);
    // The logger writes asynchronously: let the lines still queued reach the capture.
    await nextTurn();
    return { code, signal: null, stdout, stderr, logs: parseLogs(stderr) };
  } finally {
    process.stdout.write = saved.stdoutWrite;
    process.stderr.write = saved.stderrWrite;
    fs.writeSync = saved.writeSync;
    fs.write = saved.write;
    process.env = saved.env;
    process.exitCode = saved.exitCode;
    if (options.cwd) process.chdir(saved.cwd);
    running = false;
  }
}

/**
 * `rampart COMMAND` in this process against an emulator and a policy
 * directory, with the test token, logs at warn. Both are read at each call:
 * a test's `beforeEach` may replace them.
 */
export function rampartAgainst(
  emulator: () => { readonly url: string }, policies: () => { readonly dir: string },
): (command: string, args: string[]) => Promise<CliResult> {
  return (command, args) => runCliInProcess(
    [command, '--api-url', emulator().url, '--policies', policies().dir, '--log-level', 'warn', ...args],
    { env: { RAMPART_API_TOKEN: TEST_TOKEN } },
  );
}
