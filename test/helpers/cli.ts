/**
 * Runs the built CLI (`node dist/cli.js ...`) as a child process, the way a
 * user or CI does: its own env and cwd, a timeout, and the exit code, stdout and
 * stderr to assert on. `startCli` gives the handle to signal it mid-run.
 * `npm test` builds first; test/global-setup.ts builds when dist is missing or stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TEST_TOKEN } from './emulator.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface CliResult {
  /** Exit code; null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stderr's JSON log lines (others are skipped). */
  logs: Record<string, unknown>[];
}

export interface CliOptions {
  /** Merged over a clean environment (no inherited RAMPART_* variables). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The child is killed (SIGKILL) after this long; default 20 s. */
  timeoutMs?: number;
}

export interface RunningCli {
  readonly child: ChildProcess;
  /** Resolves when the process has exited. */
  readonly result: Promise<CliResult>;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr (or stdout) shows a line matching `pattern`. */
  waitFor(pattern: RegExp, options?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number }): Promise<string>;
  kill(signal?: NodeJS.Signals): void;
}

/** The environment the CLI sees: the test token, JSON logs, fast retries, no colour. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('RAMPART_') && key !== 'GITHUB_STEP_SUMMARY' && key !== 'FORCE_COLOR') env[key] = value;
  }
  Object.assign(env, {
    RAMPART_API_TOKEN: TEST_TOKEN,
    RAMPART_LOG_FORMAT: 'json',
    RAMPART_LOG_LEVEL: 'info',
    RAMPART_RETRY_BASE_MS: '10',
    NO_COLOR: '1',
  });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function startCli(args: readonly string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; stream: 'stdout' | 'stderr'; resolve: (line: string) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const text = waiter.stream === 'stdout' ? stdout : stderr;
      const line = text.split('\n').find((l) => waiter.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    check();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    check();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, logs: parseLogs(stderr) });
    });
  });
  return {
    child,
    result,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, { stream = 'stderr', timeoutMs = 15_000 } = {}) {
      return new Promise<string>((resolve, reject) => {
        const waiter = { pattern, stream, resolve: (line: string) => { clearTimeout(t); resolve(line); } };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${stream} line matched ${String(pattern)} within ${timeoutMs} ms:\n${stderr}`));
        }, timeoutMs);
        waiters.push(waiter);
        check();
        void result.then(() => {
          if (waiters.includes(waiter)) {
            clearTimeout(t);
            reject(new Error(`the CLI exited before ${stream} matched ${String(pattern)}:\n${stderr}`));
          }
        });
      });
    },
    kill: (signal = 'SIGTERM') => {
      child.kill(signal);
    },
  };
}

/** Runs the CLI to the end. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).result;
}

/** The JSON log lines of a run's standard error. */
export function parseLogs(stderr: string): Record<string, unknown>[] {
  const logs: Record<string, unknown>[] = [];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log line
    }
  }
  return logs;
}
