/**
 * An account configured in the console (no owner marks), for the adoption
 * tests: an emulator seeded with rules and IP entries as a person would have
 * made them, the CLI run in process against it, and readers of what exists.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmulatorOptions, HintRecord, IpObject } from '../../../src/emulator/index.js';
import type { CliResult } from '../../helpers/cli.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

export const CLIENT = 10042;
export const WRITE_ROUTES = ['POST /v1/objects/hint/create', 'PUT /v3/hint/{id}', 'POST /v1/objects/hint/delete', 'POST /v4/ip_rules', 'DELETE /v4/ip_rules'];

export const instance = (app: number) => ({ point: ['instance'], type: 'equal', value: String(app) });

export interface ConsoleAccount {
  readonly emulator: TestEmulator;
  /** A scratch directory; run commands here (`--policies policies` and the like). */
  readonly root: string;
  /** `rampart ARGS` in this process, against the emulator, in `root`. */
  rampart(args: readonly string[]): Promise<CliResult>;
  hints(): HintRecord[];
  ipObjects(): IpObject[];
  /** Routes of the write calls since the last `resetCalls`, in order. */
  writes(): string[];
  close(): Promise<void>;
}

export async function consoleAccount(options: Partial<EmulatorOptions> = {}): Promise<ConsoleAccount> {
  const emulator = await startTestEmulator(options);
  const root = await mkdtemp(join(tmpdir(), 'rampart-adopt-'));
  return {
    emulator,
    root,
    rampart: (args) => runCliInProcess(args, { cwd: root, env: { RAMPART_API_URL: emulator.url, RAMPART_SETTLE_TIMEOUT: undefined } }),
    hints: () => emulator.control.state().hints.filter((h) => h.unlistedFromMs === undefined).map((h) => h.record),
    ipObjects: () => emulator.control.state().ipObjects.filter((o) => o.unlistedFromMs === undefined).map((o) => o.record),
    writes: () => emulator.control.calls().filter((c) => WRITE_ROUTES.includes(c.route)).map((c) => c.route),
    async close() {
      await emulator.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** What a person made in the console for application 7 and account-wide, plus one object of another owner. */
export function seedConsoleObjects(emulator: TestEmulator): void {
  const c = emulator.control;
  c.seedHint({ clientid: CLIENT, type: 'vpatch', attack_type: 'any', point: ['header', 'HOST'], action: [instance(7), { point: ['path', 0], type: 'equal', value: 'admin' }], comment: 'the old admin panel' });
  c.seedHint({ clientid: CLIENT, type: 'regex', attack_type: 'scanner', regex: '.*curltool.*', point: ['header', 'USER-AGENT'], action: [instance(7)] });
  c.seedHint({ clientid: CLIENT, type: 'service_mode', mode: 'monitoring', action: [instance(7)] });
  c.seedHint({ clientid: CLIENT, type: 'vpatch', attack_type: 'xss', point: ['get', 'q'], action: [], comment: 'made by team b [managed-by:team-b]' });
  c.seedIpObject({ clientid: CLIENT, list: 'black', rule_type: 'ip_range', values: ['203.0.113.0/24'], pools: [7], reason: 'scanner farm' });
  c.seedIpObject({ clientid: CLIENT, list: 'black', rule_type: 'country', values: ['KP', 'IR'], pools: [7] });
  c.seedIpObject({ clientid: CLIENT, list: 'white', rule_type: 'ip_range', values: ['192.0.2.10/32'], pools: [0], reason: 'office' });
}

/** Console-made objects counted the way plans count them: 3 rules, 4 IP values (another owner's rule excluded). */
export const CONSOLE_RULES = 3;
export const CONSOLE_IP_VALUES = 4;

export function parseJson<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
  }
}
