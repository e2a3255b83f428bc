/**
 * `plan --impact` against traffic chosen to hurt it, as users run it (the
 * CLI's main, in process, against the emulator): regexes with nested
 * quantifiers meet values built to make a backtracking engine run for hours.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HitSeed } from '../../../src/emulator/hits/records.js';
import type { PlanDocument } from '../../../src/plan/types.js';
import { rampartAgainst } from '../../helpers/cli-in-process.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { policyDir, type PolicyDir } from '../../helpers/policies.js';

const CLIENT = 10042;
const HEAD = `version: 1\nclient: ${CLIENT}\napplication: 7\nmode: monitoring\n`;

let emulator: TestEmulator;
let policies: PolicyDir;
beforeEach(async () => {
  emulator = await startTestEmulator({ demoTraffic: false });
  policies = await policyDir({ 'shop.yaml': HEAD });
});
afterEach(async () => {
  await emulator.close();
  await policies.cleanup();
});

const rampart = rampartAgainst(() => emulator, () => policies);
const now = () => Math.floor(Date.now() / 1000);

function seed(hits: readonly Omit<HitSeed, 'clientid' | 'type' | 'point'>[]): void {
  emulator.control.seedHits(hits.map((hit) => ({
    clientid: CLIENT, type: 'sqli', point: ['get', 'q'], poolid: 7, domain: 'shop.example.com', path: '/api/search', ip: '192.0.2.1', time: now() - 3600, ...hit,
  })));
}

/** 40 letters and one that breaks the match. */
const HOSTILE = `${'a'.repeat(40)}!`;

describe('regexes against hostile recorded values', () => {
  it('nested quantifiers in a rule and in a Host scope finish well within --timeout, with the counts they imply', async () => {
    seed([
      { request_id: 'hostile-value', value: HOSTILE },
      { request_id: 'hostile-host', domain: HOSTILE, value: 'x' },
      { request_id: 'plain', value: 'a'.repeat(41) },
    ]);
    await policies.write('shop.yaml', `${HEAD}rules:
  - { name: nested, type: regex, regex: "^(a+)+$", attack: scanner, point: [[get, q]] }
  - { name: hosts, type: vpatch, attack: any, point: [[get, q]], when: [{ point: [header, HOST], regex: "^([a-z]+\\\\.?)+$" }] }
  - { name: ahead, type: regex, regex: "^(?=a)(a+)+$", attack: scanner, point: [[get, name]] }
`);
    const started = Date.now();
    const run = await rampart('plan', ['--impact', '--timeout', '20s', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    const plan = JSON.parse(run.stdout) as PlanDocument;
    const byName = new Map(plan.changes.map((change) => ['name' in change ? change.name : '', change.impact]));
    expect(byName.get('nested')).toMatchObject({ effect: 'newly_detected', requests: 1, sample_request_ids: ['plain'] });
    expect(byName.get('hosts')).toMatchObject({ effect: 'newly_blocked', requests: 2 });
    expect(byName.get('ahead')).toMatchObject({ effect: 'not_evaluable', evaluable: false });
    expect(byName.get('ahead')?.reason).toMatch(/no lookaround or backreferences/);
  });
});
