import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/emulator.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
let dir: string;

beforeAll(async () => {
  // `npm test` builds first; build here too when run alone.
  if (!existsSync(join(ROOT, 'dist', 'commands', 'emulator.js'))) {
    spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
  }
  dir = await mkdtemp(join(tmpdir(), 'rampart-emu-cli-'));
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the CLI and resolves with the URL from its "emulator listening" log line. */
function startCli(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: string[] }> {
  const child = spawn(process.execPath, [CLI, 'emulator', ...args], {
    env: { ...process.env, RAMPART_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      stderr.push(line);
      try {
        const entry = JSON.parse(line) as { url?: string };
        if (entry.url) resolve({ child, url: entry.url, stderr });
      } catch {
        // not a JSON log line
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited (${code}): ${stderr.join('\n')}`)));
    setTimeout(() => reject(new Error(`no URL logged: ${stderr.join('\n')}`)), 15_000);
  });
}

describe('rampart emulator', () => {
  it('serves on a random port, persists, and stops cleanly on SIGTERM', async () => {
    const tokenFile = join(dir, 'token');
    const data = join(dir, 'state.json');
    await writeFile(tokenFile, 'cli-token\n');
    const { child, url, stderr } = await startCli([
      '--listen', '127.0.0.1:0', '--token-file', tokenFile, '--data', data, '--clients', '1,2', '--listing-lag', '0', '--ip-granularity', 'per-request',
    ]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const headers = { 'x-serviceapi-token': 'cli-token' };
    const created = await call(url, 'POST', '/v1/objects/hint/create', { clientid: 1, type: 'service_mode', mode: 'block', action: [] }, headers);
    expect(created.status).toBe(200);
    expect((await call(url, 'POST', '/v1/objects/hint', { filter: { clientid: [3] } }, headers)).http).toBe(403);
    expect((await call(url, 'GET', '/__admin/config', undefined, headers)).body.ipGranularity).toBe('per-request');
    expect(stderr.join('\n')).not.toContain('cli-token');

    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const saved = JSON.parse(await readFile(data, 'utf8'));
    expect(saved.hints).toHaveLength(1);
  });

  it('exits 1 with a clear message without a token or with a bad flag', () => {
    const noToken = spawnSync(process.execPath, [CLI, 'emulator', '--listen', '127.0.0.1:0'], { encoding: 'utf8', env: { ...process.env, RAMPART_EMULATOR_TOKEN: '' } });
    expect(noToken.status).toBe(1);
    expect(noToken.stderr).toMatch(/token/);
    const badListen = spawnSync(process.execPath, [CLI, 'emulator', '--listen', 'nowhere', '--token', 't'], { encoding: 'utf8' });
    expect(badListen.status).toBe(1);
    expect(badListen.stderr).toMatch(/--listen must be HOST:PORT/);
  });
});
