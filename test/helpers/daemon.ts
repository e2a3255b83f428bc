/**
 * End-to-end helpers for `rampart run`: the daemon as a real child process
 * (test/helpers/cli.ts) against an emulator on port 0, its endpoints over
 * HTTP, its JSON log lines, git-sync and ConfigMap style policy trees swapped
 * the way those tools swap them, and a slow proxy to catch the daemon mid-apply.
 * Everything started here is registered and torn down by `cleanupDaemons()`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EmulatorOptions, HintRecord, IpObject } from '../../src/emulator/index.js';
import { ROOT, startCli, type CliOptions, type CliResult, type RunningCli } from './cli.js';
import { startTestEmulator, type TestEmulator } from './emulator.js';
import { eventually, sleep } from './eventually.js';

export const CLIENT = 10042;
export const CREATE_HINT = 'POST /v1/objects/hint/create';
export const DELETE_HINT = 'POST /v1/objects/hint/delete';
export const LIST_HINTS = 'POST /v1/objects/hint';
export const CREATE_IP = 'POST /v4/ip_rules';
export const DELETE_IP = 'DELETE /v4/ip_rules';
export const LIST_IP = 'GET /v4/ip_rules';
export const WRITE_ROUTES: readonly string[] = [CREATE_HINT, DELETE_HINT, CREATE_IP, DELETE_IP];

/** What the sample policies (policies/) declare for account 10042. */
export const SAMPLE_RULES = 11;
export const SAMPLE_IP_VALUES = 11;

export type LogLine = Record<string, unknown>;

// ---------------------------------------------------------------------------
// Teardown registry

const cleanups: (() => Promise<unknown>)[] = [];

/** Registers a teardown step; `cleanupDaemons()` runs them newest first. */
export function onCleanup(step: () => Promise<unknown>): void {
  cleanups.push(step);
}

/** Kills every daemon still running, closes emulators and proxies, removes temp dirs. Call in afterEach. */
export async function cleanupDaemons(): Promise<void> {
  const steps = cleanups.splice(0).reverse();
  for (const step of steps) {
    try {
      await step();
    } catch {
      // teardown is best effort
    }
  }
}

/** A temporary directory removed at cleanup. */
export async function tempDir(prefix = 'rampart-daemon-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------------------
// Polling

export { eventually, sleep };

// ---------------------------------------------------------------------------
// Emulator

export async function startEmulatorForDaemon(options: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const emulator = await startTestEmulator(options);
  onCleanup(() => emulator.close());
  return emulator;
}

/** Rules that exist now (deleted ones still lagging in listings excluded). */
export function liveHints(emulator: TestEmulator): HintRecord[] {
  return emulator.control.state().hints.filter((h) => h.unlistedFromMs === undefined).map((h) => h.record);
}

export function liveIpObjects(emulator: TestEmulator): IpObject[] {
  return emulator.control.state().ipObjects.filter((o) => o.unlistedFromMs === undefined).map((o) => o.record);
}

/** Carries `owner`'s mark, with or without attributes (`[managed-by:rampart fp:…]`). */
export function isOwned(text: string | null | undefined, owner = 'rampart'): boolean {
  return typeof text === 'string' && new RegExp(`\\[managed-by:${owner}(?:\\s[^\\]]*)?\\]$`).test(text);
}

/** A rule's identity as stored (conditions as a set), to count copies. */
export function hintKey(hint: HintRecord): string {
  const conditions = hint.action.map((c) => JSON.stringify([c.point, c.type, c.value])).sort();
  return JSON.stringify([hint.clientid, hint.type, conditions, hint.point, hint.attack_type, hint.regex, hint.mode, hint.comment]);
}

/** Each IP value as `list|rule_type|pools|value`, once per object holding it, sorted. */
export function ipValues(objects: readonly IpObject[]): string[] {
  return objects
    .flatMap((o) => (o.rule_type === 'ip_range' ? [o.subnet ?? ''] : (o.source_values ?? []))
      .map((v) => `${o.list}|${o.rule_type}|${o.pools.join(',')}|${v}`))
    .sort();
}

/** Counts what exists and throws on any duplicate rule or IP value. */
export function accountSummary(emulator: TestEmulator): { rules: number; ipValues: number; ownedRules: number; ownedIpValues: number } {
  const hints = liveHints(emulator);
  const keys = hints.map(hintKey);
  const duplicateRules = keys.filter((k, i) => keys.indexOf(k) !== i);
  if (duplicateRules.length > 0) throw new Error(`duplicate rules: ${duplicateRules.join('\n')}`);
  const objects = liveIpObjects(emulator);
  const values = ipValues(objects);
  const duplicateValues = values.filter((v, i) => values.indexOf(v) !== i);
  if (duplicateValues.length > 0) throw new Error(`duplicate IP values: ${duplicateValues.join(', ')}`);
  return {
    rules: hints.length,
    ipValues: values.length,
    ownedRules: hints.filter((h) => isOwned(h.comment)).length,
    ownedIpValues: ipValues(objects.filter((o) => isOwned(o.reason))).length,
  };
}

/** Write calls the emulator saw, in order. */
export function writeCalls(emulator: TestEmulator): { route: string; status: number | null; time: number }[] {
  return emulator.control.calls().filter((c) => WRITE_ROUTES.includes(c.route)).map(({ route, status, time }) => ({ route, status, time }));
}

// ---------------------------------------------------------------------------
// The daemon process

export interface Metrics {
  /** The value of `name` with exactly these labels (a subset match when `labels` is partial). */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** The sum over every sample of `name` matching `labels`. */
  sum(name: string, labels?: Record<string, string>): number;
  readonly text: string;
}

export interface HttpAnswer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke into bodies freely
  json(): any;
}

export interface Daemon {
  readonly cli: RunningCli;
  /** Base URL of /healthz, /readyz, /metrics, /plan (from the `daemon endpoints listening` log line). */
  readonly url: string;
  get(pathname: string): Promise<HttpAnswer>;
  metrics(): Promise<Metrics>;
  /** JSON log lines on stderr so far. */
  logs(): LogLine[];
  /** `cycle finished` lines so far, in order. */
  cycles(): LogLine[];
  /** Waits for a log line matching `predicate` (among all lines so far). */
  waitForLog(predicate: (line: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
  /** Waits for a `cycle finished` line matching `predicate` that comes after the first `after` cycles. */
  waitForCycle(predicate: (line: LogLine) => boolean, what: string, options?: { after?: number; timeoutMs?: number }): Promise<LogLine>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<CliResult>;
}

export function parseLogLines(text: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // a partial line still being written
    }
  }
  return lines;
}

export function parseMetrics(text: string): Metrics {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  const matching = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    text,
    value: (name, labels) => matching(name, labels)[0]?.value,
    sum: (name, labels) => matching(name, labels).reduce((total, s) => total + s.value, 0),
  };
}

async function httpGet(url: string): Promise<HttpAnswer> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

/**
 * Starts `node dist/cli.js <args>` and waits for its endpoints. `args` are the
 * full argument list (`run ...`); pass `--listen 127.0.0.1:0` to get a free port.
 */
export async function startDaemon(args: readonly string[], options: CliOptions = {}): Promise<Daemon> {
  const cli = startCli(args, { timeoutMs: 60_000, ...options });
  onCleanup(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await cli.result;
  });
  const line = await cli.waitFor(/daemon endpoints listening/, { timeoutMs: 15_000 });
  const url = (JSON.parse(line) as { url: string }).url;
  const logs = () => parseLogLines(cli.stderr());
  const cycles = () => logs().filter((l) => l.msg === 'cycle finished');
  const daemon: Daemon = {
    cli,
    url,
    get: (pathname) => httpGet(`${url}${pathname}`),
    metrics: async () => parseMetrics((await httpGet(`${url}/metrics`)).text),
    logs,
    cycles,
    waitForLog: (predicate, what, timeoutMs = 10_000) =>
      eventually(() => {
        if (cli.child.exitCode !== null) throw new Error(`the daemon exited (${cli.child.exitCode}):\n${cli.stderr()}`);
        return logs().find(predicate);
      }, `${what}\n--- stderr ---\n${tail(cli.stderr())}`, timeoutMs),
    waitForCycle: (predicate, what, { after = 0, timeoutMs = 10_000 } = {}) =>
      eventually(() => cycles().slice(after).find(predicate), `cycle: ${what}`, timeoutMs).catch((error: Error) => {
        throw new Error(`${error.message}\n--- stderr ---\n${tail(cli.stderr())}`);
      }),
    async stop(signal = 'SIGTERM') {
      cli.kill(signal);
      return cli.result;
    },
  };
  return daemon;
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** `run --api-url URL --policies DIR --listen 127.0.0.1:0 --interval 1s --log-format json ...extra`. */
export function runArgs(apiUrl: string, policies: string, extra: readonly string[] = []): string[] {
  return ['run', '--api-url', apiUrl, '--policies', policies, '--listen', '127.0.0.1:0', '--interval', '1s', '--log-format', 'json', ...extra];
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------
// Policies

/** A sample policy file's text (policies/<name>). */
const SAMPLE_FILES = ['shop.yaml', 'api.yaml', 'account-wide.yaml', 'false-positives.yaml'] as const;

export function samplePolicy(name: (typeof SAMPLE_FILES)[number]): string {
  return readFileSync(path.join(ROOT, 'policies', name), 'utf8');
}

export function samplePolicies(): Record<string, string> {
  return Object.fromEntries(SAMPLE_FILES.map((name) => [name, samplePolicy(name)]));
}

/** Replaces `from` in `text`; throws when it is not there, so a test never edits nothing. */
export function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`edit: "${from}" not found`);
  return text.replace(from, to);
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

/** A plain policy directory. */
export async function plainPolicyDir(files: Record<string, string>): Promise<string> {
  const dir = path.join(await tempDir(), 'policies');
  await writeFiles(dir, files);
  return dir;
}

export interface GitSyncTree {
  /** `<root>/git/repo/policies`: what `--policies` points at. */
  readonly policies: string;
  /** Publishes a new worktree the way git-sync does; returns its hash. */
  commit(files: Record<string, string>): Promise<string>;
}

/**
 * git-sync's layout: `<root>/git/repo` is a RELATIVE link to `.worktrees/<hash>`.
 * A commit creates the new worktree, makes a `tmp` link, renames it over `repo`
 * (atomic) and deletes the old worktree right after. Without `files`, `repo`
 * does not exist until the first commit (git-sync still cloning).
 */
export async function gitSyncTree(files: Record<string, string> | undefined): Promise<GitSyncTree> {
  const git = path.join(await tempDir('rampart-git-'), 'git');
  let current: string | undefined;
  const commit = async (next: Record<string, string>): Promise<string> => {
    const hash = randomBytes(20).toString('hex');
    await writeFiles(path.join(git, '.worktrees', hash, 'policies'), next);
    await writeFile(path.join(git, '.worktrees', hash, 'README.md'), `commit ${hash}\n`);
    await symlink(`.worktrees/${hash}`, path.join(git, 'tmp-link'));
    await rename(path.join(git, 'tmp-link'), path.join(git, 'repo'));
    if (current) await rm(path.join(git, '.worktrees', current), { recursive: true, force: true });
    current = hash;
    return hash;
  };
  if (files) await commit(files);
  await mkdir(git, { recursive: true });
  return { policies: path.join(git, 'repo', 'policies'), commit };
}

export interface ConfigMapTree {
  /** The mount: what `--policies` points at. */
  readonly dir: string;
  /** Publishes new content the way the kubelet does. */
  update(files: Record<string, string>): Promise<void>;
}

/**
 * A ConfigMap volume: `..data` links to `..2024_..._<n>`, and each file is a
 * link `shop.yaml → ..data/shop.yaml`. An update writes a new timestamped
 * directory, swaps `..data` by renaming `..data_tmp` over it, fixes the file
 * links (added or removed keys) and deletes the old directory.
 */
export async function configMapTree(files: Record<string, string>): Promise<ConfigMapTree> {
  const dir = path.join(await tempDir('rampart-configmap-'), 'policies');
  await mkdir(dir, { recursive: true });
  let current: string | undefined;
  let keys: string[] = [];
  let n = 0;
  const update = async (next: Record<string, string>): Promise<void> => {
    n += 1;
    const stamp = `..2024_06_01_12_00_${String(n).padStart(2, '0')}.${1000 + n}`;
    await writeFiles(path.join(dir, stamp), next);
    await symlink(stamp, path.join(dir, '..data_tmp'));
    await rename(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
    const nextKeys = Object.keys(next);
    for (const key of nextKeys) if (!keys.includes(key)) await symlink(path.join('..data', key), path.join(dir, key));
    for (const key of keys) if (!nextKeys.includes(key)) await rm(path.join(dir, key), { force: true });
    keys = nextKeys;
    if (current) await rm(path.join(dir, current), { recursive: true, force: true });
    current = stamp;
  };
  await update(files);
  return { dir, update };
}

// ---------------------------------------------------------------------------
// A slow proxy in front of the emulator

export interface ProxiedRequest {
  method: string;
  path: string;
  /** When the request reached the proxy (ms since the epoch). */
  at: number;
  /** When its answer was sent back, if it was. */
  answeredAt?: number;
}

export interface SlowProxy {
  readonly url: string;
  /** Every request the proxy received, in order. */
  readonly requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** Forwards to `target`, holding each request matching `slow` for `delayMs` before forwarding. */
export async function startSlowProxy(
  target: string,
  options: {
    delayMs: number;
    slow: (method: string, pathname: string) => boolean;
    /** Told of each request as it arrives, before it is held (to signal the daemon at an exact point). */
    onRequest?: (request: ProxiedRequest, pathname: string) => void;
  },
): Promise<SlowProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const record: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', at: Date.now() };
    requests.push(record);
    options.onRequest?.(record, new URL(record.path, 'http://proxy').pathname);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const pathname = new URL(record.path, 'http://proxy').pathname;
      const wait = options.slow(record.method, pathname) ? options.delayMs : 0;
      setTimeout(() => {
        const forward = httpRequest(
          { host: upstream.hostname, port: upstream.port, method: record.method, path: record.path, headers: { ...req.headers, host: upstream.host } },
          (answer: IncomingMessage) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('end', () => { record.answeredAt = Date.now(); });
          },
        );
        forward.on('error', () => res.destroy());
        forward.end(Buffer.concat(chunks));
      }, wait);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: SlowProxy = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  onCleanup(() => proxy.close());
  return proxy;
}
