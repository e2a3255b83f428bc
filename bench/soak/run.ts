/**
 * The fault-injection soak. An emulator with a data file runs in this process
 * (so it outlives every Rampart process); each iteration edits the policies at
 * random, scripts random faults, and runs `rampart apply` as a child process,
 * sometimes killed with SIGKILL at a random moment. At the end the faults and
 * the lag are cleared, a final apply runs, a plan must show no changes, and the
 * emulator's stored state must equal the desired state exactly.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { DEFAULT_IP_API, type IpApiName } from '../../src/model/ip-list-apis.js';
import { loadPolicies } from '../../src/policy/index.js';
import { injectFaults, SOAK_LAGS_MS, type FaultLabel } from './faults.js';
import { plantForeignObjects } from './foreign.js';
import { PolicyModel, SOAK_APPLICATIONS, SOAK_CLIENTS, type EditKind } from './policy-model.js';
import { Prng } from './prng.js';
import { snapshotForeign, verifyConvergence, type Verdict } from './verify.js';

export interface SoakOptions {
  /** Loop for this long (the final apply and check come after). */
  readonly durationMs: number;
  readonly seed: number;
  /** The built CLI, `dist/cli.js`. */
  readonly cli: string;
  /** Chance that a cycle's process is killed with SIGKILL at a random moment. */
  readonly killChance?: number;
  /** Kill delays are drawn from [0, maxKillDelayMs]. */
  readonly maxKillDelayMs?: number;
  /** Stop early after this many iterations. */
  readonly maxIterations?: number;
  /** Progress lines (one per iteration); default silent. */
  readonly log?: (line: string) => void;
  /** Keep the work directory (policies, data file) for a post-mortem. */
  readonly keepWorkDir?: boolean;
  /** The IP-list API every run reads and writes through (default v4). */
  readonly ipApi?: IpApiName;
}

export interface SoakResult {
  readonly seed: number;
  readonly minutes: number;
  readonly iterations: number;
  /** Processes killed with SIGKILL before they exited on their own. */
  readonly kills: number;
  readonly exitCodes: Record<string, number>;
  readonly edits: Record<string, number>;
  readonly faults: Record<string, number>;
  /** Why cycles that were not killed failed (exit 1), by the first error logged. */
  readonly failures: Record<string, number>;
  readonly apiCalls: number;
  readonly finalApplyExit: number | null;
  readonly finalPlanExit: number | null;
  readonly verdict: Verdict;
  readonly ok: boolean;
  readonly workDir: string;
}

const TOKEN = 'soak-token-0123456789abcdef';
const OWNER = 'rampart';

interface ChildRun {
  readonly code: number | null;
  readonly killed: boolean;
  readonly stderrTail: string;
}

function runCli(cli: string, args: readonly string[], env: NodeJS.ProcessEnv, killAfterMs?: number, timeoutMs = 180_000): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    let killed = false;
    const kill = (): void => {
      if (child.exitCode === null && child.signalCode === null) {
        killed = true;
        child.kill('SIGKILL');
      }
    };
    const killTimer = killAfterMs === undefined ? undefined : setTimeout(kill, killAfterMs);
    const guard = setTimeout(kill, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killTimer);
      clearTimeout(guard);
      resolve({ code, killed, stderrTail: stderr });
    });
  });
}

/** The first error a failed cycle logged (JSON log lines on stderr), shortened. */
function failureReason(stderr: string): string {
  for (const text of stderr.split('\n')) {
    try {
      const entry = JSON.parse(text) as { level?: number; msg?: string; detail?: string; code?: string };
      if ((entry.level ?? 0) >= 50) return `${entry.code ? `${entry.code}: ` : ''}${entry.detail ?? entry.msg ?? ''}`.slice(0, 120);
    } catch {
      // not a log line
    }
  }
  return stderr.trim().split('\n').at(-1)?.slice(0, 120) ?? 'unknown';
}

const tally = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const random = new Prng(options.seed);
  const workDir = await mkdtemp(join(tmpdir(), 'rampart-soak-'));
  const policies = join(workDir, 'policies');
  const dataFile = join(workDir, 'emulator.json');
  const emulator: RunningEmulator = await startEmulator({ token: TOKEN, dataFile });
  // The accounts have the applications the policies name: Rampart refuses one an account lacks.
  for (const clientid of SOAK_CLIENTS) for (const id of SOAK_APPLICATIONS) emulator.control.seedApplication({ clientid, id, name: `soak ${id}` });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RAMPART_API_TOKEN: TOKEN,
    RAMPART_API_URL: emulator.url,
    RAMPART_POLICIES: policies,
    RAMPART_LOG_FORMAT: 'json',
    RAMPART_LOG_LEVEL: 'warn',
    RAMPART_IP_API: options.ipApi ?? DEFAULT_IP_API,
    // Backoff from 100 ms instead of 1 s: more cycles per minute; Retry-After is still honoured.
    RAMPART_RETRY_BASE_MS: '100',
  };
  const applyArgs = (settle: string) => ['apply', '--force', '--settle-timeout', settle, '--request-timeout', '10000'];

  const exitCodes: Record<string, number> = {};
  const edits: Record<string, number> = {};
  const faults: Record<string, number> = {};
  const failures: Record<string, number> = {};
  let iterations = 0;
  let kills = 0;
  let lastFailure = '';
  try {
    const planted = plantForeignObjects(emulator.control, SOAK_CLIENTS);
    await emulator.control.flush();
    const foreign = snapshotForeign(emulator.control.state(), planted.hintIds, planted.ipIds);

    const model = new PolicyModel(random);
    model.seed();
    const deadline = started + options.durationMs;
    while (Date.now() < deadline && iterations < (options.maxIterations ?? Number.POSITIVE_INFINITY)) {
      iterations++;
      const done: EditKind[] = iterations === 1 ? [] : model.edit(random.int(1, 4));
      for (const kind of done) tally(edits, kind);
      await model.write(policies);
      const loaded = await loadPolicies(policies);
      if (!loaded.desired) {
        throw new Error(`the soak generated invalid policies (a bug in bench/soak): ${JSON.stringify(loaded.diagnostics.slice(0, 3))}`);
      }

      const injected: FaultLabel[] = injectFaults(emulator.control, random);
      for (const label of injected) tally(faults, label);
      const killAfter = random.chance(options.killChance ?? 0.25) ? random.int(0, options.maxKillDelayMs ?? 2500) : undefined;
      const run = await runCli(options.cli, applyArgs('5s'), env, killAfter);
      if (run.killed) kills++;
      const outcome = run.killed ? 'killed' : String(run.code);
      tally(exitCodes, outcome);
      if (!run.killed && run.code !== 0) {
        lastFailure = run.stderrTail;
        tally(failures, failureReason(run.stderrTail));
      }
      log(`#${iterations} edits=[${done.join(',')}] faults=[${injected.join(',')}] lag=${emulator.control.config().listingLagMs} ` +
        `kill=${killAfter ?? '-'} → ${outcome}`);
    }

    // Calm: no faults, no lag, and wait out the lag stamped on earlier writes.
    emulator.control.clearFaults();
    emulator.control.setConfig({ listingLagMs: 0 });
    await sleep(Math.max(...SOAK_LAGS_MS) + 250);
    const final = await runCli(options.cli, applyArgs('30s'), env);
    const plan = await runCli(options.cli, ['plan', '--detailed-exitcode'], env);
    const desired = (await loadPolicies(policies)).desired;
    if (!desired) throw new Error('the final policies are invalid');
    const verdict = verifyConvergence(emulator.control.state(), desired, OWNER, foreign);
    const problems = [...verdict.problems];
    if (final.code !== 0) problems.push(`the final apply exited ${final.code}: ${final.stderrTail.slice(-1500)}`);
    if (plan.code !== 0) problems.push(`the plan after the final apply exited ${plan.code} (2 = changes left): ${plan.stderrTail.slice(-1500)}`);
    if (problems.length > 0 && lastFailure) problems.push(`(last failed cycle's stderr: ${lastFailure.slice(-800)})`);
    const apiCalls = Object.values(emulator.control.counts()).reduce((a, b) => a + b, 0);
    return {
      seed: options.seed,
      minutes: Math.round(((Date.now() - started) / 60_000) * 10) / 10,
      iterations,
      kills,
      exitCodes,
      edits,
      faults,
      failures,
      apiCalls,
      finalApplyExit: final.code,
      finalPlanExit: plan.code,
      verdict: { ...verdict, ok: problems.length === 0, problems },
      ok: problems.length === 0,
      workDir,
    };
  } finally {
    await emulator.close();
    if (!options.keepWorkDir) await rm(workDir, { recursive: true, force: true });
  }
}

export function formatSoakResult(result: SoakResult): string {
  const v = result.verdict;
  const line = (label: string, value: string) => `${label.padEnd(22)}${value}`;
  const counts = (record: Record<string, number>) => Object.entries(record).sort().map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  const lines = [
    'Rampart soak',
    line('seed', String(result.seed)),
    line('minutes', String(result.minutes)),
    line('iterations', String(result.iterations)),
    line('kills (SIGKILL)', String(result.kills)),
    line('exit codes', counts(result.exitCodes)),
    line('edits', counts(result.edits)),
    line('faults injected', counts(result.faults)),
    line('failed cycles', counts(result.failures)),
    line('API calls', String(result.apiCalls)),
    line('final apply / plan', `exit ${result.finalApplyExit} / exit ${result.finalPlanExit}`),
    line('desired', `${v.desiredRules} rules, ${v.desiredIpValues} IP values`),
    line('owned on the server', `${v.ownedRules} rules, ${v.ownedIpValues} IP values`),
    line('foreign objects', `${v.foreignObjects}, checked untouched`),
    line('verdict', result.ok ? 'PASS: the server equals the desired state exactly' : `FAIL: ${v.problems.length} problem(s)`),
    ...v.problems.slice(0, 30).map((p) => `  - ${p}`),
  ];
  return lines.join('\n');
}
