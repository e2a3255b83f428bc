/**
 * Every shell block of the docs (```sh, ```bash, ```shell in README.md and
 * docs/*.md) is either run here, as written, or marked just above its fence
 * with `<!-- not runnable here: why -->` (a Kubernetes cluster, a Docker
 * engine, GitHub, an account), or with `<!-- run by test/….test.ts -->` when
 * another test reads it from the doc and runs it. A block added without either fails the first
 * test, so no command in the docs goes stale unseen.
 *
 * A block runs in bash in a scratch directory holding a copy of the sample
 * policies, against an emulator on port 0. `rampart` (and `npx rampart`) is a
 * shim (test/helpers/cli-shim.ts): `emulator`, which a block leaves running in
 * the background, starts the built CLI as a process; the other commands (`run
 * --once` among them) run the CLI's main in this process, asked over a local
 * socket, since a spawned CLI costs about a second each.
 * The few rewrites a block needs to run here are listed with it (a free port
 * instead of 8080, the suite's own install instead of `npm install`, `--once`
 * for a daemon): anything else runs verbatim.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, cliEnv } from '../helpers/cli.js';
import { startCliRunner, writeCliShim, type CliRunner } from '../helpers/cli-shim.js';
import { freePort } from '../helpers/daemon.js';
import { TEST_TOKEN, useTestEmulator } from '../helpers/emulator.js';

const NOT_RUNNABLE = /^\s*<!-- not runnable here: .+ -->\s*$/;
/** A block another test reads from the doc and runs as written. */
const RUN_BY = /^\s*<!-- run by (test\/\S+\.test\.ts) -->\s*$/;

interface Block {
  readonly file: string;
  readonly line: number;
  /** The block's first command line, trimmed: its name in RUNNABLE. */
  readonly first: string;
  readonly body: string;
  readonly marked: boolean;
  /** The test file that runs it, when another one does. */
  readonly runBy?: string;
}

/** Fenced shell blocks, indented ones (inside lists) included. */
export function shellBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(sh|bash|shell)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const indent = open[1] as string;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j] as string); j++) body.push((lines[j] as string).slice(indent.length));
    let before = i - 1;
    while (before >= 0 && (lines[before] as string).trim() === '') before--;
    const first = body.map((l) => l.trim()).find((l) => l && !l.startsWith('#')) ?? '';
    const runBy = RUN_BY.exec(lines[before] ?? '')?.[1];
    blocks.push({ file, line: i + 1, first, body: body.join('\n'), marked: NOT_RUNNABLE.test(lines[before] ?? '') || runBy !== undefined, ...(runBy ? { runBy } : {}) });
    i = j;
  }
  return blocks;
}

const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const blocks = docs.flatMap(shellBlocks);

interface Scratch {
  readonly dir: string;
  /** The emulator the block's environment points at. */
  readonly apiUrl: string;
}

interface Runnable {
  /** Rewrites (from → to) that make the block run here; each must match. */
  readonly rewrite?: (scratch: Scratch) => [string | RegExp, string][];
  /** Environment beyond the tests' own (cliEnv); `undefined` removes a variable. */
  readonly env?: (scratch: Scratch) => Record<string, string | undefined>;
  /** Shell run first, in the same directory (not part of the doc). */
  readonly before?: string;
  readonly exitCode: number;
  readonly expect: (result: { stdout: string; stderr: string }) => void;
}

/** Blocks run here, by file and first command line. */
const RUNNABLE: Record<string, Runnable> = {
  'README.md: npm install': {
    rewrite: ({ dir }) => [
      [/^npm install$/m, ': npm install  # done: the suite runs on an installed, built checkout'],
      [/127\.0\.0\.1:8080/g, '127.0.0.1:$PORT'],
      ['/tmp/aps.json', join(dir, 'aps.json')],
      ['npx rampart run --interval 30s', 'npx rampart run --interval 30s --once --listen 127.0.0.1:0'],
    ],
    env: () => ({ RAMPART_API_TOKEN: undefined }),
    exitCode: 0,
    expect: ({ stdout }) => {
      expect(stdout).toMatch(/^5 of 5 reads work\.$/m);
      expect(stdout).toMatch(/^Plan: 24 to create, 0 to update, 0 to delete, 0 unchanged\b/m);
      expect(stdout).toMatch(/^No changes\.[\s\S]*^0$/m);
      expect(stdout).toMatch(/^\s+~ rule mode .*\n\s+~ mode: monitoring → block$/m);
      expect(stdout).toMatch(/^Plan: 0 to create, 1 to update, 0 to delete, 23 unchanged\b/m);
      expect(stdout).toMatch(/^\s+~ rule login-brute-force .*\n(?:.*\n)*?\s+~ threshold\.count: +20 → 30$/m);
      expect(stdout).toMatch(/^policies\/false-positives\.yaml: 3 rules to add$/m);
      expect(stdout).toContain('- name: stamp-7730-search-q');
    },
  },
  'docs/operations.md: rampart doctor --emulator    # against your account: RAMPART_API_URL and the token instead of --emulator': {
    exitCode: 0,
    expect: ({ stdout }) => {
      expect(stdout).toMatch(/^ok +client 10042 +hits +POST \/v1\/objects\/hit /m);
      expect(stdout).toMatch(/^5 of 5 reads work\.$/m);
    },
  },
  'docs/tune.md: npx rampart tune --emulator --request-id e3b0c44298fc1c14 --request-id 9f86d081884c7d65': {
    exitCode: 0,
    expect: ({ stdout }) => {
      expect(stdout).toContain('note: the hits span 2 hosts (shop.example.com, api.example.com)');
      expect(stdout).toMatch(/^Tune: 4 new, 0 already declared, 0 held by unmanaged rules, from 4 hits of 2 requests\. Run with --write to add them\.$/m);
    },
  },
  'docs/ci.md: set +e': {
    env: ({ apiUrl }) => ({ RAMPART_API_URL: apiUrl }),
    exitCode: 0,
    expect: ({ stdout }) => expect(stdout).toContain('this merge changes the account'),
  },
  'docs/ci.md: rampart apply                       # plans and applies; refuses an unsafe plan': {
    env: ({ apiUrl }) => ({ RAMPART_API_URL: apiUrl }),
    before: 'rampart plan --out plan.json > /dev/null',
    // The second line is refused as the doc says: the first apply changed the account.
    exitCode: 1,
    expect: ({ stdout, stderr }) => {
      expect(stdout).toMatch(/Apply complete|created/i);
      expect(stderr).toMatch(/\[stale_plan\]/);
    },
  },
  'docs/ci.md: node --max-semi-space-size=1 --heap-growing-percent=50 --v8-pool-size=1 "$(command -v rampart)" plan': {
    // Node itself must take the options, so the built CLI runs as a process rather than through the shim.
    rewrite: () => [['"$(command -v rampart)"', `"${CLI}"`]],
    env: ({ apiUrl }) => ({ RAMPART_API_URL: apiUrl }),
    exitCode: 0,
    expect: ({ stdout }) => expect(stdout).toMatch(/^Plan: \d+ to create, 0 to update, 0 to delete/m),
  },
  'docs/impact.md: rampart apply --auto-approve                           # the sample policies, as they are': {
    env: ({ apiUrl }) => ({ RAMPART_API_URL: apiUrl }),
    exitCode: 0,
    expect: ({ stdout, stderr }) => {
      // The emulator's demo week: the shop's monitoring traffic, governed by its mode (not /admin/, which blocks already),
      // less what shop's deny list (203.0.113.0/24) blocks in either mode: both sides from the one model. The search
      // a customer made (a false positive, from outside every list) is among them.
      expect(stdout).toMatch(/^ +impact \(7 d\): would newly block 72 requests from 11 IPs on 5 paths \(top: \/api\/search 26, /m);
      expect(stdout).toMatch(/^Impact over 7 d: 136 hits read \(1 listing\)\. The whole plan, for what filtering modes and IP lists decide: would newly block 72 requests from 11 IPs\.$/m);
      expect(stdout).toMatch(/^ +impact \(30 d\): would newly block 72 requests/m);
      expect(stdout).toMatch(/^exit 1$/m);
      expect(stderr).toMatch(/more than 50 of the requests the service saw \(--impact-limit\).*\[unsafe_plan\]/);
    },
  },
  'docs/emulator.md: rampart emulator --listen 127.0.0.1:8080 --token-file ./token --data .rampart/emulator.json': {
    rewrite: () => [['127.0.0.1:8080', '127.0.0.1:$PORT'], [/$/, ' &\npid=$!\nfor _ in $(seq 100); do curl -s "http://127.0.0.1:$PORT/v4/ip_rules" >/dev/null && break; sleep 0.1; done\nkill -TERM $pid; wait $pid']],
    before: 'echo dev-token > token',
    env: () => ({ RAMPART_LOG_LEVEL: 'info' }),
    exitCode: 0,
    expect: ({ stderr }) => expect(stderr).toMatch(/emulator listening/i),
  },
};

const key = (block: Block) => `${block.file}: ${block.first}`;

describe('shell blocks in the docs', () => {
  it('each is run by this test or marked as not runnable here', () => {
    expect(blocks.length).toBeGreaterThan(10);
    const loose = blocks.filter((block) => !block.marked && !RUNNABLE[key(block)]).map((block) => `${block.file}:${block.line}: ${block.first}`);
    expect(loose, 'add <!-- not runnable here: why --> above the block, or run it in RUNNABLE').toEqual([]);
    for (const block of blocks.filter((candidate) => candidate.runBy)) {
      const test = join(ROOT, block.runBy!);
      expect(existsSync(test) && readFileSync(test, 'utf8').includes(basename(block.file)), `${block.file}:${block.line}: ${block.runBy} does not read it`).toBe(true);
    }
    const stale = Object.keys(RUNNABLE).filter((name) => !blocks.some((block) => !block.marked && key(block) === name));
    expect(stale, 'RUNNABLE names a block the docs no longer have').toEqual([]);
  });

  const emulator = useTestEmulator();
  let runner: CliRunner | undefined;
  beforeAll(async () => {
    runner = await startCliRunner();
  });
  afterAll(async () => {
    await runner?.close();
  });
  let scratchDir: string | undefined;
  afterEach(async () => {
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
    scratchDir = undefined;
  });

  for (const [name, runnable] of Object.entries(RUNNABLE)) {
    it(`runs ${name.slice(0, 90)}`, async () => {
      const block = blocks.find((candidate) => !candidate.marked && key(candidate) === name);
      expect(block, name).toBeDefined();
      const { url } = await emulator.start();
      scratchDir = await mkdtemp(join(tmpdir(), 'rampart-doc-'));
      const scratch: Scratch = { dir: scratchDir, apiUrl: url };
      await cp(join(ROOT, 'policies'), join(scratchDir, 'policies'), { recursive: true });
      const bin = join(scratchDir, '.bin');
      await mkdir(bin);
      // The emulator a block leaves running in the background is the built CLI; the rest runs in this process.
      await writeCliShim(bin, runner!, ['emulator']);

      let script = block!.body;
      for (const [from, to] of runnable.rewrite?.(scratch) ?? []) {
        expect(script, `rewrite ${String(from)} of ${name}`).toMatch(typeof from === 'string' ? new RegExp(escape(from)) : from);
        script = script.replace(from, to);
      }
      const prelude = [
        `PORT=${await freePort()}`,
        'npx() { if [ "$1" = rampart ]; then shift; rampart "$@"; else echo "npx $1: not in the docs test" >&2; return 127; fi; }',
        runnable.before ?? '',
      ].join('\n');
      const env = cliEnv({ PATH: `${bin}:${process.env.PATH ?? ''}`, RAMPART_LOG_LEVEL: 'warn', ...runnable.env?.(scratch) });
      const result = await runBash(`${prelude}\n${script}\n`, scratchDir, env);
      expect(result.code, `${name}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(runnable.exitCode);
      runnable.expect(result);
      expect(result.stdout + result.stderr).not.toContain(TEST_TOKEN);
    }, 60_000);
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => stopGroup('SIGKILL'), 50_000);
    // A process the block left in the background (the emulator) holds the pipes open: stop the group when bash exits.
    let code: number | null = null;
    const stopGroup = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is gone already: nothing was left behind.
      }
    };
    child.on('error', reject);
    child.on('exit', (exitCode) => {
      code = exitCode;
      stopGroup('SIGTERM');
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
