/**
 * Shared by the plan and apply integration tests: an emulator on port 0, the
 * CLI pointed at it, and readers of the emulator's own state (not its lagging
 * listings) to assert what really exists. `cli` runs the command in this
 * process (test/helpers/cli-in-process.ts: same main, environment and
 * result); `start` spawns it, for what needs a process (signals, kills).
 */
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import { applyPlan } from '../../../src/apply/apply.js';
import { loadDesired, prepare } from '../../../src/reconcile/prepare.js';
import { startCli, type CliOptions, type CliResult, type RunningCli } from '../../helpers/cli.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { afterEach, beforeEach } from 'vitest';
import type { EmulatorOptions, HintRecord, IpObject } from '../../../src/emulator/index.js';
import { samplePolicyDir, type PolicyDir } from '../../helpers/policies.js';
import { runSettings } from '../../../src/reconcile/settings.js';

export const CLIENT = 10042;

/** Routes that change the account. */
export const WRITE_ROUTES = ['POST /v1/objects/hint/create', 'PUT /v3/hint/{id}', 'POST /v1/objects/hint/delete', 'POST /v4/ip_rules', 'DELETE /v4/ip_rules'];
export const CREATE_HINT = 'POST /v1/objects/hint/create';
export const UPDATE_HINT = 'PUT /v3/hint/{id}';
export const DELETE_HINT = 'POST /v1/objects/hint/delete';
export const CREATE_IP = 'POST /v4/ip_rules';
export const DELETE_IP = 'DELETE /v4/ip_rules';

export interface Harness {
  readonly emulator: TestEmulator;
  /** `rampart <command> --api-url URL --policies DIR ...args`, run in this process. */
  cli(command: 'plan' | 'apply', policies: string, args?: readonly string[], options?: CliOptions): Promise<CliResult>;
  /** The same as a spawned process. */
  start(command: 'plan' | 'apply', policies: string, args?: readonly string[], options?: CliOptions): RunningCli;
  /** Rules that exist now (deleted ones still lagging in listings excluded). */
  hints(): HintRecord[];
  ipObjects(): IpObject[];
  /** Write calls the emulator saw, in order. */
  writes(): { route: string; status: number | null; outcome: string }[];
  close(): Promise<void>;
}

export async function startHarness(options: Partial<EmulatorOptions> = {}): Promise<Harness> {
  const emulator = await startTestEmulator(options);
  const fullArgs = (command: string, policies: string, args: readonly string[]) => [
    command, '--api-url', emulator.url, '--policies', policies, ...args,
  ];
  return {
    emulator,
    cli: (command, policies, args = [], cliOptions) => runCliInProcess(fullArgs(command, policies, args), cliOptions),
    start: (command, policies, args = [], cliOptions) => startCli(fullArgs(command, policies, args), cliOptions),
    hints: () => emulator.control.state().hints.filter((h) => h.unlistedFromMs === undefined).map((h) => h.record),
    ipObjects: () => emulator.control.state().ipObjects.filter((o) => o.unlistedFromMs === undefined).map((o) => o.record),
    writes: () =>
      emulator.control
        .calls()
        .filter((call) => WRITE_ROUTES.includes(call.route))
        .map(({ route, status, outcome }) => ({ route, status, outcome })),
    close: () => emulator.close(),
  };
}

/**
 * Brings the account in step with `policies` in-process (the same plan and
 * apply code, without spawning the CLI): the setup step of tests about what
 * comes next. Clears the call log afterwards.
 */
export async function applyInProcess(harness: Harness, policies: string): Promise<void> {
  const http = new ApiClient({ baseUrl: harness.emulator.url, credentials: { token: TEST_TOKEN } });
  try {
    const api = new ServiceApi(http);
    const { plan } = await prepare({ policies, policy: await loadDesired({ policies }), api, settings: runSettings() });
    const report = await applyPlan(plan, { api, settleTimeoutMs: 10_000, settleIntervalMs: 50 });
    if (report.failed + report.skipped > 0 || !report.settled) throw new Error(`setup apply incomplete: ${JSON.stringify(report.results)}`);
  } finally {
    await http.close();
  }
  harness.emulator.control.resetCalls();
}

/** A rule's identity as stored (conditions as a set), to count copies. */
export function hintKey(hint: HintRecord): string {
  const conditions = hint.action.map((c) => JSON.stringify([c.point, c.type, c.value])).sort();
  return JSON.stringify([hint.clientid, hint.type, conditions, hint.point, hint.attack_type, hint.regex, hint.mode, hint.comment]);
}

/** Copies of each rule; a duplicate shows as a count above 1. */
export function hintCounts(hints: readonly HintRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const hint of hints) counts.set(hintKey(hint), (counts.get(hintKey(hint)) ?? 0) + 1);
  return counts;
}

/** Each IP value as `list|rule_type|pools|value`, once per object holding it (sorted). */
export function ipValues(objects: readonly IpObject[]): string[] {
  return objects
    .flatMap((o) => (o.rule_type === 'ip_range' ? [o.subnet ?? ''] : (o.source_values ?? [])).map((v) => `${o.list}|${o.rule_type}|${o.pools.join(',')}|${v}`))
    .sort();
}

/** True when no rule and no IP value exists twice. */
export function expectNoDuplicates(harness: Harness): { rules: number; ipValues: number } {
  const counts = hintCounts(harness.hints());
  const duplicates = [...counts].filter(([, n]) => n > 1);
  if (duplicates.length > 0) throw new Error(`duplicate rules: ${JSON.stringify(duplicates)}`);
  const values = ipValues(harness.ipObjects());
  const repeated = values.filter((v, i) => values.indexOf(v) !== i);
  if (repeated.length > 0) throw new Error(`duplicate IP values: ${JSON.stringify(repeated)}`);
  return { rules: counts.size, ipValues: values.length };
}

/** What the sample policies declare for account 10042: 13 rules (2 of them abuse controls), 11 IP values. */
export const SAMPLE_RULES = 13;
export const SAMPLE_IP_VALUES = 11;

/** Parses stdout of `--format json` (the plan), failing with the output when it is not JSON. */
export function parseJson<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
  }
}

export interface SampleSetup {
  /** Starts this test's emulator (closed after the test). */
  start(options?: Partial<EmulatorOptions>): Promise<Harness>;
  /** The running harness; only after `start`. */
  readonly harness: Harness;
  /** A fresh copy of the sample policies for each test. */
  readonly policies: PolicyDir;
}

/** Registers the per-test setup most plan and apply tests share: sample policies and an emulator. */
export function useSampleSetup(): SampleSetup {
  let harness: Harness | undefined;
  let policies: PolicyDir | undefined;
  beforeEach(async () => {
    policies = await samplePolicyDir();
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await policies?.cleanup();
  });
  return {
    async start(options = {}) {
      harness = await startHarness(options);
      return harness;
    },
    get harness() {
      if (!harness) throw new Error('call start() first');
      return harness;
    },
    get policies() {
      if (!policies) throw new Error('no policies outside a test');
      return policies;
    },
  };
}
