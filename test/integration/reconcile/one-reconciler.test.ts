/**
 * `apply` and a daemon cycle are one reconciler (src/reconcile/reconcile.ts):
 * the same scripted scenario run through each ends the same. The scenario
 * creates, updates, adopts and deletes rules, meets a write the service
 * refuses, then a pause. Each run gets a fresh emulator set up the same way;
 * the writes (what, why, how it ended) and the account afterwards must match.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ServiceApi } from '../../../src/api/service.js';
import type { AuditEntry } from '../../../src/audit/entry.js';
import { WriteJournal } from '../../../src/live/write-journal.js';
import { silentLogger } from '../../../src/log.js';
import { createCycle } from '../../../src/reconcile/cycle.js';
import type { CycleOutcome } from '../../../src/reconcile/outcome.js';
import { runSettings } from '../../../src/reconcile/settings.js';
import { runCliInProcess } from '../../helpers/cli-in-process.js';
import { startTestEmulator, TEST_TOKEN, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, yaml, type PolicyDir } from '../../helpers/policies.js';
import { applyInProcess, hintKey, ipValues, WRITE_ROUTES, type Harness } from '../apply/harness.js';

const CLIENT = 10042;

const rule = (name: string, path: string, comment: string) => yaml`
  - name: ${name}
    type: vpatch
    attack: sqli
    point: [[get, id]]
    when:
      - { point: [path, 0], equal: ${path} }
    comment: ${comment}
`;

/** The shop's policy file with these rules (and IP lists). */
const shop = (rules: string, ipLists = '') => `version: 1\nclient: ${CLIENT}\napplication: 7\nrules:\n${rules}${ipLists}`;

/** The policies the account is first brought in step with: three owned rules. */
const BEFORE = shop(rule('kept', 'kept', 'stays as it is') + rule('edited', 'edited', 'before the edit') + rule('dropped', 'dropped', 'removed from the policies'));

/** The reviewed change: one rule created, one updated, one adopted, one deleted, and an IP value the service refuses. */
const AFTER = shop(
  rule('kept', 'kept', 'stays as it is') + rule('edited', 'edited', 'after the edit') + rule('added', 'added', 'a new rule') + rule('console', 'console', 'made in the console'),
  yaml`
ip_lists:
  deny:
    - ips: [198.51.100.7]
      reason: refused by the service
`,
);

interface Scenario {
  readonly emulator: TestEmulator;
  readonly policies: PolicyDir;
}

/** A fresh account brought in step with BEFORE, one unmanaged rule added in the console, then the policies edited to AFTER. */
async function scenario(): Promise<Scenario> {
  const emulator = await startTestEmulator();
  const policies = await policyDir({ 'shop.yaml': BEFORE });
  await applyInProcess({ emulator } as Harness, policies.dir);
  emulator.control.seedHint({
    clientid: CLIENT, type: 'vpatch', attack_type: 'sqli', point: ['get', 'id'], comment: 'made in the console',
    action: [{ point: ['instance'], type: 'equal', value: '7' }, { point: ['path', 0], type: 'equal', value: 'console' }],
  });
  await writeFile(join(policies.dir, 'shop.yaml'), AFTER);
  // The service refuses the IP create for good.
  emulator.control.addFault({ route: 'POST /v4/ip_rules', kind: 'status', status: 400, body: { ips: { error: 'refused' } } });
  return { emulator, policies };
}

/** What a write was and how it ended, without the ids the service picked. */
function written(entry: Pick<AuditEntry, 'action' | 'kind' | 'name' | 'cause' | 'status' | 'fields' | 'values'>): string {
  return JSON.stringify([entry.action, entry.kind, entry.name ?? '', entry.cause, entry.status, entry.fields ?? [], entry.values ?? []]);
}

/** The account's rules and IP values, ids left out. */
function account(emulator: TestEmulator): { rules: string[]; ip: string[] } {
  const state = emulator.control.state();
  return {
    rules: state.hints.filter((h) => h.unlistedFromMs === undefined).map((h) => hintKey(h.record)).sort(),
    ip: ipValues(state.ipObjects.filter((o) => o.unlistedFromMs === undefined).map((o) => o.record)),
  };
}

const writeCalls = (emulator: TestEmulator) => emulator.control.calls().filter((call) => WRITE_ROUTES.includes(call.route)).length;

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

/** `rampart apply --adopt`: the writes of its JSON report, and the error code it ended with. */
async function throughApply(setup: Scenario): Promise<{ writes: string[]; code: string | undefined }> {
  const result = await runCliInProcess([
    'apply', '--adopt', '--format', 'json', '--settle-timeout', '5s', '--api-url', setup.emulator.url, '--policies', setup.policies.dir,
  ]);
  // A refusal before any write prints no report.
  const report = (result.stdout.trim() ? JSON.parse(result.stdout) : { results: [] }) as { results: AuditEntry[] };
  return { writes: report.results.map(written).sort(), code: /\[([a-z_]+)\]\s*$/.exec(result.stderr.trim())?.[1] };
}

/** One daemon cycle with `--adopt`: its writes, and the code of the error it ended with. */
async function throughCycle(setup: Scenario): Promise<{ writes: string[]; code: string | undefined; outcome: CycleOutcome }> {
  const http = new ApiClient({ baseUrl: setup.emulator.url, credentials: { token: TEST_TOKEN } });
  opened.push(() => http.close());
  const cycle = createCycle({
    policies: setup.policies.dir, api: new ServiceApi(http), journal: new WriteJournal(120_000),
    settings: runSettings({ adopt: true, settleTimeoutMs: 5_000 }),
  });
  const outcome = await cycle({ cycleId: '1', reasons: ['initial'], signal: new AbortController().signal, logger: silentLogger() });
  const code = (outcome.error as { code?: string } | undefined)?.code;
  return { writes: (outcome.writes ?? []).map(written).sort(), code, outcome };
}

describe('apply and a daemon cycle', () => {
  it('end the same: the same writes for the same reasons, the same refusal, the same account', async () => {
    const forApply = await scenario();
    const forCycle = await scenario();
    for (const { emulator, policies } of [forApply, forCycle]) opened.push(() => emulator.close(), () => policies.cleanup());

    const applied = await throughApply(forApply);
    const cycled = await throughCycle(forCycle);

    expect(cycled.outcome.result).toBe('failed');
    expect(applied.code).toBe('apply_failed');
    expect(cycled.code).toBe(applied.code);
    expect(cycled.writes).toEqual(applied.writes);
    // Every action of the scenario is there, and the refused write failed.
    const actions = applied.writes.map((w) => (JSON.parse(w) as string[]).slice(0, 2).join(' ') + ' ' + (JSON.parse(w) as string[])[4]);
    expect(actions).toEqual(expect.arrayContaining([
      'create rule applied', 'update rule applied', 'adopt rule applied', 'delete rule applied', 'create ip failed',
    ]));
    expect(account(forCycle.emulator)).toEqual(account(forApply.emulator));
  });

  it('end the same under a pause: nothing written by either', async () => {
    const forApply = await scenario();
    const forCycle = await scenario();
    for (const { emulator, policies } of [forApply, forCycle]) opened.push(() => emulator.close(), () => policies.cleanup());
    for (const { policies } of [forApply, forCycle]) await writeFile(join(policies.dir, '.rampart-pause'), 'incident 42\n');
    forApply.emulator.control.resetCalls();
    forCycle.emulator.control.resetCalls();

    const applied = await throughApply(forApply);
    const cycled = await throughCycle(forCycle);

    // apply refuses (a pipeline must not pass as applied); the daemon plans and reports.
    expect(applied.code).toBe('paused');
    expect(cycled.outcome.result).toBe('paused');
    expect(cycled.writes).toEqual(applied.writes);
    expect(writeCalls(forApply.emulator)).toBe(0);
    expect(writeCalls(forCycle.emulator)).toBe(0);
    expect(account(forCycle.emulator)).toEqual(account(forApply.emulator));
  });
});
